#include "games/racing_kings.h"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <utility>
#include <vector>

namespace pyaz {
namespace {

using chess::kRank8;
using Termination = RacingKingsTermination;

// Zobrist keys: one per (colour, kind, square), and one for Black to move.
struct ZobristKeys {
    std::array<std::array<std::array<std::uint64_t, 64>, RacingKings::kNumKinds>, 2> piece{};
    std::uint64_t black_to_move = 0;
};

constexpr std::uint64_t splitmix64(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

constexpr ZobristKeys kZobrist = [] {
    ZobristKeys keys{};
    std::uint64_t seed = 0x5241434B494E4753ull;  // "RACKINGS"
    for (auto& side : keys.piece) {
        for (auto& kind : side) {
            for (auto& key : kind) key = splitmix64(seed);
        }
    }
    keys.black_to_move = splitmix64(seed);
    return keys;
}();

// The 44 pawn-promotion (from, to) pairs of chess, White's (7th to 8th rank) then Black's (2nd
// to 1st), each by from-file then to-file. Slot 4096 + 2 * i is promotion i to a knight,
// 4096 + 2 * i + 1 to a queen.
struct SquarePair {
    int from;
    int to;
};

constexpr std::array<SquarePair, 44> kPromotionMoves = [] {
    std::array<SquarePair, 44> moves{};
    int n = 0;
    for (const auto& [from_rank, to_rank] : {std::pair{6, 7}, std::pair{1, 0}}) {
        for (int file = 0; file < 8; ++file) {
            for (int to_file = file - 1; to_file <= file + 1; ++to_file) {
                if (to_file < 0 || to_file > 7) continue;
                moves[n++] = {chess::make_square(file, from_rank), chess::make_square(to_file, to_rank)};
            }
        }
    }
    return moves;
}();

constexpr char kPieceLetters[] = "kqrbn";             // by Kind; upper case for White
constexpr int kChessPieceType[] = {6, 5, 4, 3, 2};  // python-chess piece types by Kind
constexpr const char* kKindNames[] = {"king", "queen", "rook", "bishop", "knight"};
constexpr int kMaxOfKind[] = {1, 1, 2, 2, 2};         // per side (python-chess's limits)
constexpr const char* kSideNames[] = {"White", "Black"};

std::string trim(const std::string& s) {
    const auto first = s.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) return "";
    return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::vector<std::string> split_fields(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> fields;
    for (std::string field; in >> field;) fields.push_back(field);
    return fields;
}

[[noreturn]] void fail_fen(const std::string& fen, const std::string& reason) {
    fail("invalid Racing Kings FEN '" + fen + "': " + reason);
}

// A non-negative decimal count of at most 9 digits.
int parse_count(const std::string& text, const std::string& fen, const char* what) {
    const std::string digits = !text.empty() && (text[0] == '-' || text[0] == '+') ? text.substr(1) : text;
    bool is_number = !digits.empty();
    for (char c : digits) is_number = is_number && std::isdigit(static_cast<unsigned char>(c));
    if (!is_number) fail_fen(fen, std::string("the ") + what + " '" + text + "' is not a number");
    if (text[0] == '-') fail_fen(fen, std::string("the ") + what + " '" + text + "' must be >= 0");
    if (digits.size() > 9) fail_fen(fen, std::string("the ") + what + " '" + text + "' is out of range (at most 999999999)");
    return std::stoi(digits);
}

int kind_of_letter(char letter) {
    for (int kind = 0; kind < RacingKings::kNumKinds; ++kind) {
        if (kPieceLetters[kind] == std::tolower(static_cast<unsigned char>(letter))) return kind;
    }
    return -1;
}

}  // namespace

RacingKings::RacingKings() : RacingKings(from_fen(kStartFen)) {}

RacingKings::RacingKings(const std::string& start) : RacingKings() {
    const std::string key = lower(trim(start));
    if (key == "standard" || key == "start" || key == "startpos") return;
    *this = from_fen(key == "racingkings-mod" || key == "mod" ? kModStartFen : start);
}

void RacingKings::put_piece(int side, int kind, int square) {
    colors_[side] |= bit(square);
    kinds_[kind] |= bit(square);
}

RacingKings RacingKings::from_fen(const std::string& fen) {
    check_ascii(fen, "a Racing Kings FEN");
    const std::vector<std::string> fields = split_fields(fen);
    if (fields.empty() || fields.size() > 6) {
        fail_fen(fen, "expected 1 to 6 fields (board, side, castling, en passant, halfmove clock, "
                      "fullmove number), got " + std::to_string(fields.size()));
    }
    RacingKings state{EmptyBoard{}};
    state.parse_placement(fields[0], fen);
    const std::string side = fields.size() > 1 ? fields[1] : "w";
    if (side != "w" && side != "b") fail_fen(fen, "the side to move must be 'w' or 'b', got '" + side + "'");
    if (fields.size() > 2 && fields[2] != "-") {
        fail_fen(fen, "Racing Kings has no castling, so the castling field must be '-', got '" +
                          fields[2] + "'");
    }
    if (fields.size() > 3 && fields[3] != "-") {
        fail_fen(fen, "Racing Kings has no pawns, so the en passant field must be '-', got '" +
                          fields[3] + "'");
    }
    state.halfmove_clock_ = fields.size() > 4 ? parse_count(fields[4], fen, "halfmove clock") : 0;
    const int fullmove = fields.size() > 5 ? parse_count(fields[5], fen, "fullmove number") : 1;
    if (fullmove < 1) fail_fen(fen, "the fullmove number must be at least 1");
    state.to_move_ = static_cast<std::int8_t>(side == "b");
    state.ply_ = 2 * (fullmove - 1) + state.to_move_;
    state.validate(fen);
    state.compute_key();
    state.update_context();
    return state;
}

void RacingKings::parse_placement(const std::string& placement, const std::string& fen) {
    int rank = 7;
    int file = 0;
    bool previous_digit = false;
    for (char c : placement) {
        if (c == '/') {
            if (file != 8) fail_fen(fen, "rank " + std::to_string(rank + 1) + " does not have 8 squares");
            if (--rank < 0) fail_fen(fen, "the board has more than 8 ranks");
            file = 0;
            previous_digit = false;
        } else if (c >= '1' && c <= '8') {
            if (previous_digit) fail_fen(fen, "two digits in a row in the board field");
            file += c - '0';
            previous_digit = true;
        } else if (c == 'p' || c == 'P') {
            fail_fen(fen, "Racing Kings has no pawns");
        } else if (const int kind = kind_of_letter(c); kind >= 0) {
            if (file >= 8) fail_fen(fen, "rank " + std::to_string(rank + 1) + " has more than 8 squares");
            put_piece(std::islower(static_cast<unsigned char>(c)) ? 1 : 0, kind, chess::make_square(file++, rank));
            previous_digit = false;
        } else {
            fail_fen(fen, std::string("unexpected character '") + c + "' in the board field");
        }
        if (file > 8) fail_fen(fen, "rank " + std::to_string(rank + 1) + " has more than 8 squares");
    }
    if (rank != 0 || file != 8) fail_fen(fen, "the board field must describe 8 ranks of 8 squares");
}

void RacingKings::validate(const std::string& fen) const {
    for (int side = 0; side < 2; ++side) {
        for (int kind = 0; kind < kNumKinds; ++kind) {
            const int count = popcount(colors_[side] & kinds_[kind]);
            if (kind == kKing && count != 1) {
                fail_fen(fen, std::string(kSideNames[side]) + " must have exactly one king, has " +
                                  std::to_string(count));
            }
            if (count > kMaxOfKind[kind]) {
                fail_fen(fen, std::string(kSideNames[side]) + " has " + std::to_string(count) + " " +
                                  kKindNames[kind] + "s; Racing Kings allows at most " +
                                  std::to_string(kMaxOfKind[kind]));
            }
        }
    }
    for (int side = 0; side < 2; ++side) {
        if (attacks_by(side ^ 1, occupied()) & colors_[side] & kinds_[kKing]) {
            fail_fen(fen, std::string(kSideNames[side]) +
                              "'s king is in check (in Racing Kings no king is ever in check)");
        }
    }
    if (to_move_ == 1 && (colors_[0] & kinds_[kKing] & kRank8) && (colors_[1] & kinds_[kKing] & kRank8)) {
        fail_fen(fen, "both kings are on the 8th rank with Black to move (the race ended on "
                      "Black's move, so White must be to move)");
    }
}

void RacingKings::compute_key() {
    key_ = to_move_ ? kZobrist.black_to_move : 0;
    for (int side = 0; side < 2; ++side) {
        for (int kind = 0; kind < kNumKinds; ++kind) {
            for (Bitboard b = colors_[side] & kinds_[kind]; b;) key_ ^= kZobrist.piece[side][kind][pop_lowest_bit(b)];
        }
    }
}

RacingKings RacingKings::from_text(const std::string& text) {
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        const std::string t = trim(line);
        if (lower(t.substr(0, 4)) == "fen:") return from_fen(trim(t.substr(4)));
    }
    return from_fen(trim(text));
}

void RacingKings::make_move(int from, int to, int kind) {
    const int us = to_move_;
    const int them = us ^ 1;
    const Bitboard to_bb = bit(to);
    if (colors_[them] & to_bb) {
        const int captured = kind_at(to);
        colors_[them] ^= to_bb;
        kinds_[captured] ^= to_bb;
        key_ ^= kZobrist.piece[them][captured][to];
        halfmove_clock_ = 0;
        history_size_ = 0;  // no earlier position can come back
    } else {
        if (history_size_ < kHistoryCapacity) history_[history_size_++] = key_;
        ++halfmove_clock_;
    }
    const Bitboard move_bb = bit(from) | to_bb;
    colors_[us] ^= move_bb;
    kinds_[kind] ^= move_bb;
    key_ ^= kZobrist.piece[us][kind][from] ^ kZobrist.piece[us][kind][to] ^ kZobrist.black_to_move;
    to_move_ = static_cast<std::int8_t>(them);
    ++ply_;
    update_context();
}

Bitboard RacingKings::attacks_by(int side, Bitboard occupied) const {
    const Bitboard own = colors_[side];
    Bitboard attacked = chess::king_attacks(king_square(side));
    for (Bitboard b = own & kinds_[kKnight]; b;) attacked |= chess::knight_attacks(pop_lowest_bit(b));
    for (Bitboard b = own & (kinds_[kBishop] | kinds_[kQueen]); b;) {
        attacked |= chess::bishop_attacks(pop_lowest_bit(b), occupied);
    }
    for (Bitboard b = own & (kinds_[kRook] | kinds_[kQueen]); b;) {
        attacked |= chess::rook_attacks(pop_lowest_bit(b), occupied);
    }
    return attacked;
}

Bitboard RacingKings::lone_blockers(int square, int side) const {
    const Bitboard own = colors_[side];
    const Bitboard snipers = (chess::kRookRays[square] & own & (kinds_[kRook] | kinds_[kQueen])) |
                             (chess::kBishopRays[square] & own & (kinds_[kBishop] | kinds_[kQueen]));
    const Bitboard occ = occupied();
    Bitboard blockers = 0;
    for (Bitboard b = snipers; b;) {
        const Bitboard between = chess::between(square, pop_lowest_bit(b)) & occ;
        if (between && !(between & (between - 1))) blockers |= between;
    }
    return blockers;
}

void RacingKings::update_context() {
    const int us = to_move_;
    const int them = us ^ 1;
    const Bitboard occ = occupied();
    const int king = king_square(us);
    const int enemy_king = king_square(them);
    check_squares_[kKing] = 0;
    check_squares_[kKnight] = chess::knight_attacks(enemy_king);
    check_squares_[kBishop] = chess::bishop_attacks(enemy_king, occ);
    check_squares_[kRook] = chess::rook_attacks(enemy_king, occ);
    check_squares_[kQueen] = check_squares_[kBishop] | check_squares_[kRook];
    pinned_ = lone_blockers(king, them) & colors_[us];
    discoverers_ = lone_blockers(enemy_king, us) & colors_[us];
    attacked_ = attacks_by(them, occ ^ bit(king));
    update_status();
}

bool RacingKings::has_legal_move() const {
    for (int kind = 0; kind < kNumKinds; ++kind) {
        for (Bitboard b = colors_[to_move_] & kinds_[kind]; b;) {
            if (targets(kind, pop_lowest_bit(b))) return true;
        }
    }
    return false;
}

bool RacingKings::is_threefold_repetition() const {
    int earlier = 0;
    for (int i = history_size_ - 2; i >= 0; i -= 2) {
        if (history_[i] == key_ && ++earlier == 2) return true;
    }
    return false;
}

void RacingKings::update_status() {
    const bool white_home = colors_[0] & kinds_[kKing] & kRank8;
    const bool black_home = colors_[1] & kinds_[kKing] & kRank8;
    status_ = Status::kOngoing;
    termination_ = Termination::kNone;
    if (white_home && black_home) {
        status_ = Status::kDraw;
        termination_ = Termination::kGoalDraw;
    } else if (black_home) {
        status_ = win_for(1);
        termination_ = Termination::kGoal;
    } else if (white_home && (to_move_ == 0 || !(targets(kKing, king_square(1)) & kRank8))) {
        status_ = win_for(0);  // Black cannot (or could not) answer on the 8th rank
        termination_ = Termination::kGoal;
    } else if (!has_legal_move()) {
        status_ = Status::kDraw;
        termination_ = Termination::kStalemate;
    } else if (halfmove_clock_ >= 100) {
        status_ = Status::kDraw;
        termination_ = Termination::kFiftyMoves;
    } else if (is_threefold_repetition()) {
        status_ = Status::kDraw;
        termination_ = Termination::kThreefoldRepetition;
    }
}

bool RacingKings::is_legal(Action action) const {
    if (is_terminal(status_) || action < 0 || action >= kNumMoveActions) return false;
    const int from = action >> 6;
    if (!(colors_[to_move_] & bit(from))) return false;
    return targets(kind_at(from), from) & bit(action & 63);
}

void RacingKings::legal_actions(ActionList<kMaxActions>& out) const {
    if (is_terminal(status_)) return;
    for_each_move([&](int from, int to, int) { out.push_back(move_action(from, to)); });
}

Action RacingKings::random_action(Rng& rng) const {
    int r = static_cast<int>(rng.below(static_cast<std::uint32_t>(count_moves())));
    for (Bitboard pieces = colors_[to_move_]; pieces;) {
        const int from = pop_lowest_bit(pieces);
        const Bitboard t = targets(kind_at(from), from);
        const int n = popcount(t);
        if (r < n) return move_action(from, nth_set_bit(t, r));
        r -= n;
    }
    return kNoAction;
}

void RacingKings::encode(float* out) const {
    std::fill(out, out + kNumPlanes * 64, 0.0f);
    for (int side = 0; side < 2; ++side) {
        const int first_plane = side == to_move_ ? 0 : 6;
        for (int kind = 0; kind < kNumKinds; ++kind) {
            for (Bitboard b = colors_[side] & kinds_[kind]; b;) {
                const int sq = pop_lowest_bit(b);
                out[(first_plane + kind) * 64 + (7 - chess::rank_of(sq)) * 8 + chess::file_of(sq)] = 1.0f;
            }
        }
    }
}

Cell RacingKings::cell(int row, int col) const {
    const Bitboard b = bit(chess::make_square(col, 7 - row));
    if (colors_[0] & b) return kFirst;
    if (colors_[1] & b) return kSecond;
    return kEmpty;
}

int RacingKings::piece_at(int square) const {
    const Bitboard b = bit(square);
    if (!(occupied() & b)) return 0;
    const int type = kChessPieceType[kind_at(square)];
    return (colors_[0] & b) ? type : -type;
}

std::string RacingKings::fen() const {
    std::string out;
    for (int rank = 7; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < 8; ++file) {
            const int sq = chess::make_square(file, rank);
            if (!(occupied() & bit(sq))) {
                ++empty;
                continue;
            }
            if (empty) out += static_cast<char>('0' + empty);
            empty = 0;
            const char letter = kPieceLetters[kind_at(sq)];
            out += (colors_[0] & bit(sq)) ? static_cast<char>(std::toupper(letter)) : letter;
        }
        if (empty) out += static_cast<char>('0' + empty);
        if (rank) out += '/';
    }
    return out + (to_move_ ? " b" : " w") + " - - " + std::to_string(halfmove_clock_) + " " +
           std::to_string(fullmove_number());
}

namespace {

std::string result_text(Status status, Termination termination) {
    static const char* const kReasons[] = {"", "a king reached the 8th rank",
                                           "both kings reached the 8th rank", "stalemate",
                                           "50-move rule", "threefold repetition"};
    const std::string reason = kReasons[static_cast<int>(termination)];
    switch (status) {
        case Status::kOngoing: return "";
        case Status::kDraw: return "game over: draw (" + reason + ")";
        case Status::kFirstPlayerWin: return "game over: White wins (" + reason + ")";
        case Status::kSecondPlayerWin: return "game over: Black wins (" + reason + ")";
    }
    return "";
}

}  // namespace

std::string RacingKings::to_string() const {
    std::string out = "  a b c d e f g h\n";
    for (int row = 0; row < 8; ++row) {
        out += static_cast<char>('8' - row);
        for (int col = 0; col < 8; ++col) {
            const int piece = piece_at(chess::make_square(col, 7 - row));
            const char letter = piece ? ".pnbrqk"[piece > 0 ? piece : -piece] : '.';
            out += ' ';
            out += piece > 0 ? static_cast<char>(std::toupper(letter)) : letter;
        }
        out += '\n';
    }
    out += "FEN: " + fen() + "\n";
    if (!is_terminal(status_)) return out + (to_move_ ? "Black" : "White") + " to move\n";
    return out + result_text(status_, termination_) + "\n";
}

std::string RacingKings::action_to_string(Action action) const {
    if (action < 0 || action >= kNumActions) {
        fail("action " + std::to_string(action) + " is out of range for Racing Kings (0.." +
             std::to_string(kNumActions - 1) + ")");
    }
    SquarePair move{action >> 6, action & 63};
    std::string suffix;
    if (action >= kNumMoveActions) {
        const int slot = action - kNumMoveActions;
        move = kPromotionMoves[slot / 2];
        suffix = slot % 2 ? "q" : "n";
    }
    const auto from = chess::square_name(move.from);
    const auto to = chess::square_name(move.to);
    return std::string{from[0], from[1], to[0], to[1]} + suffix;
}

Action RacingKings::parse_action(const std::string& text) const {
    const std::string t = lower(trim(text));
    const int from = t.size() >= 4 ? chess::parse_square(t[0], t[1]) : -1;
    const int to = t.size() >= 4 ? chess::parse_square(t[2], t[3]) : -1;
    if ((t.size() != 4 && t.size() != 5) || from < 0 || to < 0) {
        fail("bad UCI move '" + text + "' (expected a from and a to square, e.g. 'e2e4')");
    }
    if (t.size() == 4) return move_action(from, to);
    if (t[4] != 'n' && t[4] != 'q') {
        fail("bad UCI move '" + text + "': only promotions to a knight (n) or a queen (q) are in "
             "the action space");
    }
    for (int i = 0; i < static_cast<int>(kPromotionMoves.size()); ++i) {
        if (kPromotionMoves[i].from == from && kPromotionMoves[i].to == to) {
            return kNumMoveActions + 2 * i + (t[4] == 'q' ? 1 : 0);
        }
    }
    fail("bad UCI move '" + text + "': " + t.substr(0, 4) + " is not a pawn promotion move");
}

}  // namespace pyaz
