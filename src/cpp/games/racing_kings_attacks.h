// Chess geometry on 64-bit bitboards: squares a1 = 0, b1 = 1, ..., h8 = 63 (file + 8 * rank),
// as in python-chess. Step attacks (king, knight), empty-board slider rays, and the lines and
// segments between two squares are constexpr tables; rook and bishop attacks for an occupancy
// use "fancy" magic bitboards (a multiply and a shift, portable C++17, no BMI2), whose magic
// numbers are searched once when the library loads (a fixed-seed PRNG, so always the same).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "core/bitboard.h"

namespace pyaz::chess {

constexpr int kNumSquares = 64;

constexpr int file_of(int square) { return square & 7; }
constexpr int rank_of(int square) { return square >> 3; }
constexpr int make_square(int file, int rank) { return rank * 8 + file; }

constexpr Bitboard kRank1 = 0xFFull;
constexpr Bitboard kRank8 = kRank1 << 56;

namespace detail {

struct Step {
    int file;
    int rank;
};

constexpr bool on_board(int file, int rank) { return file >= 0 && file < 8 && rank >= 0 && rank < 8; }

template <std::size_t kCount>
constexpr std::array<Bitboard, kNumSquares> step_table(const std::array<Step, kCount>& steps) {
    std::array<Bitboard, kNumSquares> table{};
    for (int sq = 0; sq < kNumSquares; ++sq) {
        for (const Step& s : steps) {
            const int f = file_of(sq) + s.file;
            const int r = rank_of(sq) + s.rank;
            if (on_board(f, r)) table[sq] |= Bitboard{1} << make_square(f, r);
        }
    }
    return table;
}

constexpr std::array<Step, 4> kRookSteps{{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}};
constexpr std::array<Step, 4> kBishopSteps{{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}};

// Squares from `square` along one direction up to the edge, stopping at (and including) the
// first occupied square.
constexpr Bitboard ray(int square, Step step, Bitboard occupied = 0) {
    Bitboard squares = 0;
    for (int f = file_of(square) + step.file, r = rank_of(square) + step.rank; on_board(f, r);
         f += step.file, r += step.rank) {
        const Bitboard b = Bitboard{1} << make_square(f, r);
        squares |= b;
        if (occupied & b) break;
    }
    return squares;
}

// Attacks of a slider moving along `steps`: the slow reference the magic tables are built from.
constexpr Bitboard slide(int square, Bitboard occupied, const std::array<Step, 4>& steps) {
    Bitboard attacks = 0;
    for (const Step& s : steps) attacks |= ray(square, s, occupied);
    return attacks;
}

// For every pair of squares: the full line through both (empty unless they share a rank, file
// or diagonal), and the squares strictly between them.
struct LineTables {
    std::array<std::array<Bitboard, kNumSquares>, kNumSquares> line{};
    std::array<std::array<Bitboard, kNumSquares>, kNumSquares> between{};
};

constexpr LineTables make_line_tables() {
    LineTables t{};
    for (int a = 0; a < kNumSquares; ++a) {
        for (const auto& steps : {kRookSteps, kBishopSteps}) {
            for (const Step& s : steps) {
                const Bitboard full = ray(a, s) | ray(a, Step{-s.file, -s.rank}) | (Bitboard{1} << a);
                Bitboard walked = 0;
                for (int f = file_of(a) + s.file, r = rank_of(a) + s.rank; on_board(f, r);
                     f += s.file, r += s.rank) {
                    const int b = make_square(f, r);
                    t.line[a][b] = full;
                    t.between[a][b] = walked;
                    walked |= Bitboard{1} << b;
                }
            }
        }
    }
    return t;
}

// One square's magic: attacks(occupied) = table[((occupied & mask) * magic) >> shift].
struct Magic {
    Bitboard mask = 0;
    Bitboard magic = 0;
    const Bitboard* table = nullptr;
    unsigned shift = 0;

    std::size_t index(Bitboard occupied) const {
        return static_cast<std::size_t>(((occupied & mask) * magic) >> shift);
    }
};

// Filled by attacks.cpp while the library loads (before any game can be built).
extern std::array<Magic, kNumSquares> rook_magics;
extern std::array<Magic, kNumSquares> bishop_magics;

}  // namespace detail

inline constexpr std::array<Bitboard, kNumSquares> kKingAttacks = detail::step_table(
    std::array<detail::Step, 8>{{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}}});
inline constexpr std::array<Bitboard, kNumSquares> kKnightAttacks = detail::step_table(
    std::array<detail::Step, 8>{{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}});

// Empty-board attacks of a rook and a bishop.
inline constexpr std::array<Bitboard, kNumSquares> kRookRays = [] {
    std::array<Bitboard, kNumSquares> t{};
    for (int sq = 0; sq < kNumSquares; ++sq) t[sq] = detail::slide(sq, 0, detail::kRookSteps);
    return t;
}();
inline constexpr std::array<Bitboard, kNumSquares> kBishopRays = [] {
    std::array<Bitboard, kNumSquares> t{};
    for (int sq = 0; sq < kNumSquares; ++sq) t[sq] = detail::slide(sq, 0, detail::kBishopSteps);
    return t;
}();

inline constexpr detail::LineTables kLines = detail::make_line_tables();

// The whole line through a and b (both included), or 0 if they are not aligned.
inline Bitboard line(int a, int b) { return kLines.line[a][b]; }
// The squares strictly between a and b on their line, or 0 if they are not aligned.
inline Bitboard between(int a, int b) { return kLines.between[a][b]; }

inline Bitboard king_attacks(int square) { return kKingAttacks[square]; }
inline Bitboard knight_attacks(int square) { return kKnightAttacks[square]; }

inline Bitboard rook_attacks(int square, Bitboard occupied) {
    const detail::Magic& m = detail::rook_magics[square];
    return m.table[m.index(occupied)];
}

inline Bitboard bishop_attacks(int square, Bitboard occupied) {
    const detail::Magic& m = detail::bishop_magics[square];
    return m.table[m.index(occupied)];
}

inline Bitboard queen_attacks(int square, Bitboard occupied) {
    return rook_attacks(square, occupied) | bishop_attacks(square, occupied);
}

// True once the magic tables are built (they are, as soon as the library is loaded).
bool magics_ready();

// "a1".."h8" for a square index, and the index of such a name (-1 if it is not one).
inline std::array<char, 2> square_name(int square) {
    return {static_cast<char>('a' + file_of(square)), static_cast<char>('1' + rank_of(square))};
}
inline int parse_square(char file, char rank) {
    if (file < 'a' || file > 'h' || rank < '1' || rank > '8') return -1;
    return make_square(file - 'a', rank - '1');
}

}  // namespace pyaz::chess
