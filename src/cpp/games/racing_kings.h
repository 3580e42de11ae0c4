// Racing Kings (lichess's variant, python-chess's RacingKingsBoard, Fairy-Stockfish's
// "racingkings") on bitboards.
//
// Rules: the chess pieces K Q R B N move as in chess; there are no pawns, castling or en passant.
// No move may give check, so no king is ever in check (and, as in chess, no move may expose
// one's own king). The first king to reach the 8th rank wins, except that when White's king gets
// there first Black has one more move and draws by also reaching it: if Black has a legal king
// move to the 8th rank the game goes on, otherwise White has won at once (lichess's rule).
// Stalemate, the 50-move rule (100 plies without a capture) and threefold repetition (Zobrist
// keys of the positions since the last capture) are automatic draws.
//
// Squares a1 = 0 ... h8 = 63. Actions (seed 000's m = 4184): from * 64 + to for the 4096 square
// pairs, then 88 pawn-promotion slots (44 promotion moves x {knight, queen}) that never occur in
// this game. Player 0 is White and moves first; player 1 is Black.
//
// Move legality needs no make/unmake: with nobody ever in check, a move is legal when it keeps a
// pinned piece on its pin line, does not land on a square from which its kind would attack the
// enemy king, does not lift a lone blocker off the line between one's own slider and the enemy
// king, and (for the king) does not step onto an attacked square. Those masks are computed once
// per position (update_context), so counting the legal moves is a popcount per piece.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "games/racing_kings_attacks.h"
#include "core/bitboard.h"
#include "core/rng.h"
#include "games/common.h"

namespace pyaz {

// Why a Racing Kings game ended.
enum class RacingKingsTermination : std::int8_t {
    kNone,         // still going
    kGoal,         // one king reached the 8th rank (and Black could not, or need not, answer)
    kGoalDraw,     // White reached it and Black answered by reaching it too
    kStalemate,    // the side to move has no legal move
    kFiftyMoves,   // 100 plies without a capture
    kThreefoldRepetition,
};

class RacingKings {
public:
    static constexpr int kNumMoveActions = 64 * 64;
    static constexpr int kNumPromotionActions = 88;
    static constexpr int kNumActions = kNumMoveActions + kNumPromotionActions;
    // Capacity of a legal-move list: at most Q + 2R + 2B + 2N + K = 27 + 28 + 26 + 16 + 8 = 105.
    static constexpr int kMaxActions = 128;
    // K Q R B N P of the side to move, then the opponent's; the pawn planes are always empty.
    static constexpr int kNumPlanes = 12;
    static constexpr const char* kName = "racingkings";
    static constexpr const char* kStartFen = "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1";
    // Seed 000's modified game: fewer pieces, in the middle of the board (README, "Racing Kings").
    static constexpr const char* kModStartFen = "8/8/8/8/2krRK2/2nbBN2/8/8 w - - 0 1";

    // Piece kinds, in the order of the network planes.
    enum Kind : int { kKing, kQueen, kRook, kBishop, kKnight, kNumKinds };

    RacingKings();  // the standard start
    // "standard", "racingkings-mod" (or "mod"), or a FEN.
    explicit RacingKings(const std::string& start);
    // Parses a FEN (1 to 6 fields; missing ones default to "w - - 0 1"); ValueError on malformed
    // text or an impossible position (king count, pawns, too many pieces, a king in check, ...).
    static RacingKings from_fen(const std::string& fen);
    // A FEN, or text holding a line "FEN: ..." (the to_string() output).
    static RacingKings from_text(const std::string& text);

    int height() const { return 8; }
    int width() const { return 8; }
    int num_actions() const { return kNumActions; }
    int num_planes() const { return kNumPlanes; }

    Status status() const { return status_; }
    RacingKingsTermination termination() const { return termination_; }
    int to_move() const { return to_move_; }
    // Plies since the start of the game: 2 * (fullmove number - 1), plus 1 with Black to move.
    int ply() const { return ply_; }
    int halfmove_clock() const { return halfmove_clock_; }
    int fullmove_number() const { return ply_ / 2 + 1; }
    std::uint64_t key() const { return key_; }

    int num_legal_actions() const { return is_terminal(status_) ? 0 : count_moves(); }
    bool is_legal(Action action) const;
    void legal_actions(ActionList<kMaxActions>& out) const;
    Action random_action(Rng& rng) const;

    // Applies a legal action (unchecked; callers validate with is_legal).
    void apply(Action action) { make_move(action >> 6, action & 63, kind_at(action >> 6)); }
    // Applies a uniformly random legal action; the game must not be over.
    void apply_random(Rng& rng) { apply(random_action(rng)); }

    // Calls visit(child) for the state after each legal action, in action order.
    template <class Visit>
    void for_each_child(Visit&& visit) const {
        if (is_terminal(status_)) return;
        for_each_move([&](int from, int to, int kind) {
            RacingKings child = *this;
            child.make_move(from, to, kind);
            visit(child);
        });
    }

    // Network input, 12 x 8 x 8 floats: plane k < 6 holds the side to move's pieces of kind k
    // (K Q R B N P), plane 6 + k the opponent's. Row 0 is the 8th rank, column 0 the a-file, for
    // both colours (both kings race up the board, so it is not flipped for Black).
    void encode(float* out) const;
    // kFirst for a White piece, kSecond for a Black one; row 0 is the 8th rank.
    Cell cell(int row, int col) const;
    // 0 for an empty square, else python-chess's piece type (1 pawn ... 6 king), negative for
    // Black.
    int piece_at(int square) const;

    std::string to_string() const;
    std::string fen() const;
    // UCI text of any action in the action space ("e2e4"; promotion slots "a7a8n", "a7a8q").
    std::string action_to_string(Action action) const;
    // The action of a UCI move; ValueError if the text is not a move of the action space.
    // Legality is not checked.
    Action parse_action(const std::string& text) const;

    static Action move_action(int from, int to) { return from * 64 + to; }

private:
    static constexpr int kHistoryCapacity = 100;  // the 50-move rule ends a game at 100 plies

    struct EmptyBoard {};
    explicit RacingKings(EmptyBoard) {}

    Bitboard occupied() const { return colors_[0] | colors_[1]; }
    int king_square(int side) const { return lowest_bit(colors_[side] & kinds_[kKing]); }
    int kind_at(int square) const {
        int kind = 0;
        while (!(kinds_[kind] & bit(square))) ++kind;
        return kind;
    }

    static Bitboard attacks(int kind, int square, Bitboard occupied) {
        switch (kind) {
            case kKing: return chess::king_attacks(square);
            case kQueen: return chess::queen_attacks(square, occupied);
            case kRook: return chess::rook_attacks(square, occupied);
            case kBishop: return chess::bishop_attacks(square, occupied);
            default: return chess::knight_attacks(square);
        }
    }

    // Legal destinations of the side to move's piece of `kind` on `from`.
    Bitboard targets(int kind, int from) const {
        Bitboard t = attacks(kind, from, occupied()) & ~colors_[to_move_] & ~check_squares_[kind];
        if (kind == kKing) t &= ~attacked_;
        const Bitboard b = bit(from);
        if (pinned_ & b) t &= chess::line(king_square(to_move_), from);
        if (discoverers_ & b) t &= chess::line(king_square(to_move_ ^ 1), from);
        return t;
    }

    int count_moves() const {
        int n = 0;
        for (int kind = 0; kind < kNumKinds; ++kind) {
            for (Bitboard b = colors_[to_move_] & kinds_[kind]; b;) {
                n += popcount(targets(kind, pop_lowest_bit(b)));
            }
        }
        return n;
    }

    // Calls f(from, to, kind) for every legal move, in action order.
    template <class F>
    void for_each_move(F&& f) const {
        for (Bitboard pieces = colors_[to_move_]; pieces;) {
            const int from = pop_lowest_bit(pieces);
            const int kind = kind_at(from);
            for (Bitboard t = targets(kind, from); t;) f(from, pop_lowest_bit(t), kind);
        }
    }

    bool has_legal_move() const;
    void make_move(int from, int to, int kind);
    // Recomputes the legality masks for the side to move, then the status.
    void update_context();
    void update_status();
    bool is_threefold_repetition() const;
    // Squares attacked by `side` with the given occupancy.
    Bitboard attacks_by(int side, Bitboard occupied) const;
    // Pieces that alone stand between `square` and a slider of `side` aimed at it.
    Bitboard lone_blockers(int square, int side) const;
    void put_piece(int side, int kind, int square);
    // Reads the board field of a FEN into this (empty) state; `fen` is quoted in errors.
    void parse_placement(const std::string& placement, const std::string& fen);
    // Rejects positions that cannot occur in Racing Kings (ValueError quoting `fen`).
    void validate(const std::string& fen) const;
    void compute_key();

    std::array<Bitboard, 2> colors_{};
    std::array<Bitboard, kNumKinds> kinds_{};
    // Legality masks of the side to move (see the file comment).
    std::array<Bitboard, kNumKinds> check_squares_{};  // where each kind would give check
    Bitboard pinned_ = 0;        // own pieces pinned to the own king
    Bitboard discoverers_ = 0;   // own pieces, king included, that alone block an own slider's
                                 // line to the enemy king
    Bitboard attacked_ = 0;      // squares the opponent attacks, the own king lifted off
    std::uint64_t key_ = 0;
    std::int32_t ply_ = 0;
    std::int32_t halfmove_clock_ = 0;
    std::int16_t history_size_ = 0;
    std::int8_t to_move_ = 0;
    Status status_ = Status::kOngoing;
    RacingKingsTermination termination_ = RacingKingsTermination::kNone;
    // Keys of the positions since the last capture (or the start), oldest first.
    std::array<std::uint64_t, kHistoryCapacity> history_{};
};

}  // namespace pyaz
