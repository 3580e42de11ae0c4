#include "games/racing_kings_attacks.h"

#include <vector>

namespace pyaz::chess {
namespace detail {

std::array<Magic, kNumSquares> rook_magics;
std::array<Magic, kNumSquares> bishop_magics;

namespace {

// Table sizes: the sum over squares of 2^(relevant occupancy bits).
constexpr std::size_t kRookTableSize = 102400;
constexpr std::size_t kBishopTableSize = 5248;

std::array<Bitboard, kRookTableSize> rook_table;
std::array<Bitboard, kBishopTableSize> bishop_table;

// Magics found once by the search below (fill_square) with these seeds; they are tried first so
// that loading takes milliseconds. A wrong entry would only slow loading: the search replaces it.
constexpr std::array<Bitboard, kNumSquares> kKnownRookMagics = {{
    0x1080004008801020ull, 0x0840092002C03000ull, 0x1900200010400900ull, 0x0880100008000480ull,
    0x4200100420080200ull, 0x8100020100080400ull, 0x0200040110886200ull, 0x0200008040220411ull,
    0x0404800084400220ull, 0x0000401000402000ull, 0x0086001081220440ull, 0x0408800800100280ull,
    0x000A001201040820ull, 0x8848800200840080ull, 0x4001000100040200ull, 0x0442000102105084ull,
    0x9080010020804100ull, 0x0040404000201009ull, 0x0000808010002009ull, 0x2200090021D00100ull,
    0x0008008008040080ull, 0x0004004002010040ull, 0x0011040008015042ull, 0x00000A0001768104ull,
    0x0000800080204009ull, 0x2010004140002001ull, 0x9800200280100080ull, 0x1000100080080080ull,
    0x0442000A00049020ull, 0x2100040080020080ull, 0x0800120400900148ull, 0x0010040A00128541ull,
    0x2800804000800030ull, 0x1010002000400041ull, 0x4000200011004100ull, 0x0610008410800800ull,
    0x0400802402800800ull, 0xC100020080800400ull, 0x0002000802000401ull, 0x0182085882000401ull,
    0x0220204000808000ull, 0x2860100040024022ull, 0x0001002004110040ull, 0x99101042000A0020ull,
    0x0004080004008080ull, 0x0010040002008080ull, 0x2012004881020004ull, 0x8300842444820011ull,
    0x0088403882010200ull, 0x0820400080210100ull, 0x0110910040A00300ull, 0x0801100280080480ull,
    0x0242009008200600ull, 0x1002000489500200ull, 0x0040800200010080ull, 0x0091800041000080ull,
    0x0000209300488001ull, 0x04C1002414824001ull, 0x020020000B001041ull, 0x7000100004200901ull,
    0x8002002004100802ull, 0x30010002084C0007ull, 0x0888221800813004ull, 0x4000002840840112ull,
}};
constexpr std::array<Bitboard, kNumSquares> kKnownBishopMagics = {{
    0x2048017020910100ull, 0x0044410424008008ull, 0x040828A400900000ull, 0x8002209200022000ull,
    0x0002021000540002ull, 0x0021018840000000ull, 0x00009E8420204002ull, 0x00A0920110084480ull,
    0x4003062018010110ull, 0x0221046812004E09ull, 0x01E11002958912A0ull, 0x0000044410804000ull,
    0x0000821210000080ull, 0x080201102210A800ull, 0x0080040411045004ull, 0x00704A1842021000ull,
    0x1005061070322800ull, 0x0018001010410444ull, 0x0010000800401420ull, 0x2204002844000800ull,
    0x2052020412022280ull, 0x000A020101008208ull, 0x0040400201042000ull, 0x03E1082040480410ull,
    0x1004200004208414ull, 0x08700400984808C8ull, 0x0088080004004410ull, 0x008C0240140100A2ull,
    0x0008840001822000ull, 0x0050088001080100ull, 0x98140840040A2200ull, 0x3002020900210110ull,
    0x1004040640206000ull, 0x1090909000840400ull, 0x9002444810100020ull, 0x4000020080080080ull,
    0x0028020400011010ull, 0x0290808300020100ull, 0x8010020882004410ull, 0x0604010040082C20ull,
    0x20040104C0801008ull, 0x6004208424001050ull, 0x1002840041000800ull, 0x0200042018000102ull,
    0xA8002000A0821C00ull, 0x0040080802201910ull, 0x0222620444000100ull, 0x0002080041020088ull,
    0x1500820110401050ull, 0x0000492090100080ull, 0x0900410041100000ull, 0x0302000420880000ull,
    0x0010501202020020ull, 0x0008200490049040ull, 0x0462080214A40120ull, 0x2421310102008100ull,
    0x2400420080884060ull, 0x0800804406184208ull, 0x0B0080124A084400ull, 0x082E082300840412ull,
    0x6051049040082200ull, 0xC610211002102101ull, 0x0000048808010433ull, 0x0010200804405440ull,
}};

// xorshift64*: a small fixed-seed generator, so the magics are the same on every load.
class MagicRng {
public:
    explicit MagicRng(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        state_ ^= state_ >> 12;
        state_ ^= state_ << 25;
        state_ ^= state_ >> 27;
        return state_ * 2685821657736338717ull;
    }
    // Candidates with few set bits make good magics.
    std::uint64_t sparse() { return next() & next() & next(); }

private:
    std::uint64_t state_;
};

// Relevant occupancy: the empty-board rays without the board edges they run into.
Bitboard relevant_mask(int square, const std::array<Step, 4>& steps) {
    const Bitboard edges = ((kRank1 | kRank8) & ~(kRank1 << (8 * rank_of(square)))) |
                           ((0x0101010101010101ull | 0x8080808080808080ull) &
                            ~(0x0101010101010101ull << file_of(square)));
    return slide(square, 0, steps) & ~edges;
}

// Finds a magic for one square and fills its slice of the table; returns the slice size.
std::size_t fill_square(int square, const std::array<Step, 4>& steps, Bitboard* table, Magic& m,
                        Bitboard known_magic, MagicRng& rng) {
    m.mask = relevant_mask(square, steps);
    const int bits = popcount(m.mask);
    m.shift = static_cast<unsigned>(64 - bits);
    m.table = table;
    const std::size_t size = std::size_t{1} << bits;

    // Every subset of the mask (Carry-Rippler enumeration) with its true attacks.
    std::vector<Bitboard> occupancies;
    std::vector<Bitboard> references;
    Bitboard subset = 0;
    do {
        occupancies.push_back(subset);
        references.push_back(slide(square, subset, steps));
        subset = (subset - m.mask) & m.mask;
    } while (subset);

    std::vector<int> epoch(size, 0);
    for (int attempt = 1;; ++attempt) {
        if (attempt == 1) {
            m.magic = known_magic;
        } else {
            do m.magic = rng.sparse();
            while (popcount((m.mask * m.magic) >> 56) < 6);
        }
        bool ok = true;
        for (std::size_t i = 0; ok && i < occupancies.size(); ++i) {
            const std::size_t idx = m.index(occupancies[i]);
            if (epoch[idx] < attempt) {
                epoch[idx] = attempt;
                table[idx] = references[i];
            } else if (table[idx] != references[i]) {
                ok = false;
            }
        }
        if (ok) return size;
    }
}

void fill_slider(const std::array<Step, 4>& steps, Bitboard* table,
                 std::array<Magic, kNumSquares>& magics, const std::array<Bitboard, kNumSquares>& known,
                 std::uint64_t seed) {
    MagicRng rng(seed);
    std::size_t offset = 0;
    for (int sq = 0; sq < kNumSquares; ++sq) {
        offset += fill_square(sq, steps, table + offset, magics[sq], known[sq], rng);
    }
}

bool init_magics() {
    fill_slider(kRookSteps, rook_table.data(), rook_magics, kKnownRookMagics, 0x9E3779B97F4A7C15ull);
    fill_slider(kBishopSteps, bishop_table.data(), bishop_magics, kKnownBishopMagics,
                0xD1B54A32D192ED03ull);
    return true;
}

// Runs while the library loads; nothing uses the tables during static initialisation.
const bool kMagicsReady = init_magics();

}  // namespace
}  // namespace detail

bool magics_ready() { return detail::kMagicsReady; }

}  // namespace pyaz::chess
