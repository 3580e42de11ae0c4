#include "search/gomoku_mentor_board.h"

#include <algorithm>

#include "core/rng.h"

namespace pyaz::mentor {
namespace {

constexpr int kReach = 5;  // neighbours on each side of a cell in a line key
constexpr int kLineCells = 2 * kReach + 1;
constexpr int kCentre = kReach;
constexpr int kNumKeys = 59049;  // 3^10
constexpr std::uint8_t kUnclassified = 255;

// Neighbour states in a line key, from the point of view of the colour being classified.
enum LineCell : std::uint8_t { kOpen = 0, kOwn = 1, kBlocked = 2 };

constexpr std::array<int, 2 * kReach> kPowersOf3 = {1,    3,    9,     27,    81,
                                                    243,  729,  2187,  6561,  19683};

// Digit of the line key that holds the neighbour at `offset` (-5..-1, 1..5) from the cell.
constexpr int digit_of(int offset) { return offset < 0 ? offset + kReach : offset + kReach - 1; }

// The patterns of all 3^10 line keys under one five rule, classified once (memoised recursion:
// a key's pattern depends on keys with one more own stone).
class PatternTable {
public:
    explicit PatternTable(bool overline_wins) : overline_wins_(overline_wins) {
        table_.fill(kUnclassified);
        for (int key = 0; key < kNumKeys; ++key) classify(key);
    }

    Pattern operator[](int key) const { return static_cast<Pattern>(table_[key]); }

private:
    using Line = std::array<std::uint8_t, kLineCells>;

    static Line decode(int key) {
        Line line{};
        for (int offset = -kReach; offset <= kReach; ++offset) {
            if (offset == 0) continue;
            line[kCentre + offset] = static_cast<std::uint8_t>(key / kPowersOf3[digit_of(offset)] % 3);
        }
        line[kCentre] = kOwn;
        return line;
    }

    // Whether the run of own stones through the centre wins.
    bool is_five(const Line& line) const {
        int run = 1;
        for (int j = kCentre - 1; j >= 0 && line[j] == kOwn; --j) ++run;
        for (int j = kCentre + 1; j < kLineCells && line[j] == kOwn; ++j) ++run;
        return overline_wins_ ? run >= 5 : run == 5;
    }

    Pattern classify(int key) {
        if (table_[key] != kUnclassified) return static_cast<Pattern>(table_[key]);
        const Pattern pattern = compute(key);
        table_[key] = pattern;
        return pattern;
    }

    Pattern compute(int key) {
        Line line = decode(key);
        if (is_five(line)) return kFive;
        int winning_cells = 0;
        for (int j = 0; j < kLineCells; ++j) {
            if (line[j] != kOpen) continue;
            line[j] = kOwn;
            winning_cells += is_five(line) ? 1 : 0;
            line[j] = kOpen;
        }
        if (winning_cells >= 2) return kFlex4;
        if (winning_cells == 1) return kBlock4;
        // One more own stone on the line: the best it can reach, one step down.
        Pattern best = kNone;
        for (int offset = -kReach; offset <= kReach; ++offset) {
            if (offset == 0 || line[kCentre + offset] != kOpen) continue;
            best = std::max(best, one_step_down(classify(key + kPowersOf3[digit_of(offset)])));
        }
        return best;
    }

    static Pattern one_step_down(Pattern next) {
        switch (next) {
            case kFlex4: return kFlex3;
            case kBlock4: return kBlock3;
            case kFlex3: return kFlex2;
            case kBlock3: return kBlock2;
            default: return kNone;
        }
    }

    bool overline_wins_;
    std::array<std::uint8_t, kNumKeys> table_{};
};

const PatternTable& pattern_table(bool overline_wins) {
    static const PatternTable overline(true);
    static const PatternTable exact_five(false);
    return overline_wins ? overline : exact_five;
}

struct ZobristKeys {
    std::array<std::array<std::uint64_t, kCells>, 2> stone{};
    std::uint64_t second_to_move = 0;
};

const ZobristKeys& zobrist() {
    static const ZobristKeys keys = [] {
        ZobristKeys k;
        Rng rng(0x6d656e746f72ull);  // fixed: hashes are the same in every run
        for (auto& colour : k.stone) {
            for (auto& key : colour) key = rng.next();
        }
        k.second_to_move = rng.next();
        return k;
    }();
    return keys;
}

// Worth of a stone's pattern along one line, for the static evaluation. An open three on the
// board shows up as two kFlex4 cells and two kBlock4 cells, a closed three as two kBlock4 cells.
constexpr std::array<int, 8> kPatternValue = {0, 2, 6, 6, 30, 32, 200, 1000};
// Extra worth of cells where one stone makes two threats at once.
constexpr std::array<int, kNumThreats> kThreatBonus = {0, 0, 60, 0, 150, 200, 0};

Threat combine(const std::array<Pattern, kNumDirections>& patterns) {
    int fives = 0, open_fours = 0, fours = 0, open_threes = 0;
    for (Pattern p : patterns) {
        fives += p == kFive;
        open_fours += p == kFlex4;
        fours += p == kBlock4;
        open_threes += p == kFlex3;
    }
    if (fives > 0) return kFiveThreat;
    if (open_fours > 0 || fours >= 2) return kWinningFour;
    if (fours > 0) return open_threes > 0 ? kFourThree : kFour;
    if (open_threes >= 2) return kThreeThree;
    return open_threes > 0 ? kThree : kQuiet;
}

}  // namespace

Board::Board(const Gomoku& state)
    : size_(state.size()), overline_wins_(state.overline_wins()) {
    content_.fill(kWall);
    for (int r = 0; r < size_; ++r) {
        for (int c = 0; c < size_; ++c) {
            const int cell = (r + kPad) * kStride + c + kPad;
            cells_.push_back(cell);
            content_[cell] = kEmptyContent;
        }
    }
    for (int colour = 0; colour < 2; ++colour) {
        counts_[colour][kQuiet] = static_cast<int>(cells_.size());
    }
    // Walls block both colours' lines; a pattern never looks past five cells.
    for (int cell : cells_) {
        for (int d = 0; d < kNumDirections; ++d) {
            for (int offset = -kReach; offset <= kReach; ++offset) {
                if (offset == 0 || content_[cell + offset * kSteps[d]] != kWall) continue;
                const int blocked = kBlocked * kPowersOf3[digit_of(offset)];
                keys_[0][cell][d] = static_cast<std::uint16_t>(keys_[0][cell][d] + blocked);
                keys_[1][cell][d] = static_cast<std::uint16_t>(keys_[1][cell][d] + blocked);
            }
        }
    }
    for (int cell : cells_) {
        for (int d = 0; d < kNumDirections; ++d) refresh_line(cell, d);
    }
    for (int r = 0; r < size_; ++r) {
        for (int c = 0; c < size_; ++c) {
            const Cell stone = state.cell(r, c);
            if (stone != kEmpty) put(cell_of(r * size_ + c), stone - 1);
        }
    }
    to_move_ = state.to_move();
    if (to_move_ == 1) hash_ ^= zobrist().second_to_move;
}

int Board::count_at_least(int colour, Threat threat) const {
    int total = 0;
    for (int t = threat; t < kNumThreats; ++t) total += counts_[colour][t];
    return total;
}

int Board::find(int colour, Threat threat) const {
    for (int cell : cells_) {
        if (threats_[colour][cell] >= threat) return cell;
    }
    return kNoCell;
}

int Board::fives_near(int colour, int cell, std::array<int, 8>& out) const {
    int found = 0;
    for (int step : kSteps) {
        for (int k = -4; k <= 4; ++k) {
            const int other = cell + k * step;
            if (k != 0 && threats_[colour][other] == kFiveThreat) out[found++] = other;
        }
    }
    return found;
}

void Board::play(int cell) {
    put(cell, to_move_);
    history_.push_back(cell);
    to_move_ ^= 1;
    hash_ ^= zobrist().second_to_move;
}

void Board::pass() {
    history_.push_back(kNoCell);
    to_move_ ^= 1;
    hash_ ^= zobrist().second_to_move;
}

void Board::undo() {
    const int cell = history_.back();
    history_.pop_back();
    to_move_ ^= 1;
    hash_ ^= zobrist().second_to_move;
    if (cell != kNoCell) remove(cell, to_move_);
}

void Board::put(int cell, int colour) {
    content_[cell] = static_cast<std::uint8_t>(colour + 1);
    clear_cell(cell);
    update_keys(cell, colour, +1);
    update_near(cell, +1);
    hash_ ^= zobrist().stone[colour][cell];
    ++stone_count_;
}

void Board::remove(int cell, int colour) {
    content_[cell] = kEmptyContent;
    update_keys(cell, colour, -1);
    update_near(cell, -1);
    for (int d = 0; d < kNumDirections; ++d) refresh_line(cell, d);
    hash_ ^= zobrist().stone[colour][cell];
    --stone_count_;
}

void Board::update_keys(int cell, int colour, int sign) {
    for (int d = 0; d < kNumDirections; ++d) {
        for (int offset = -kReach; offset <= kReach; ++offset) {
            // `cell` is the neighbour at `offset` of `other`.
            const int other = cell - offset * kSteps[d];
            if (offset == 0 || content_[other] == kWall) continue;
            const int weight = kPowersOf3[digit_of(offset)];
            auto& own = keys_[colour][other][d];
            auto& theirs = keys_[colour ^ 1][other][d];
            own = static_cast<std::uint16_t>(own + sign * kOwn * weight);
            theirs = static_cast<std::uint16_t>(theirs + sign * kBlocked * weight);
            if (content_[other] == kEmptyContent) refresh_line(other, d);
        }
    }
}

void Board::update_near(int cell, int delta) {
    for (int dr = -2; dr <= 2; ++dr) {
        for (int dc = -2; dc <= 2; ++dc) {
            auto& n = near_[cell + dr * kStride + dc];
            n = static_cast<std::uint8_t>(n + delta);
        }
    }
}

void Board::refresh_line(int cell, int direction) {
    const PatternTable& table = pattern_table(overline_wins_);
    for (int colour = 0; colour < 2; ++colour) {
        const Pattern p = table[keys_[colour][cell][direction]];
        if (p == patterns_[colour][cell][direction]) continue;
        patterns_[colour][cell][direction] = p;
        refresh_cell(colour, cell);
    }
}

void Board::refresh_cell(int colour, int cell) {
    const Threat threat = combine(patterns_[colour][cell]);
    int value = kThreatBonus[threat];
    for (Pattern p : patterns_[colour][cell]) value += kPatternValue[p];
    --counts_[colour][threats_[colour][cell]];
    ++counts_[colour][threat];
    threats_[colour][cell] = threat;
    totals_[colour] += value - values_[colour][cell];
    values_[colour][cell] = static_cast<std::int16_t>(value);
}

void Board::clear_cell(int cell) {
    for (int colour = 0; colour < 2; ++colour) {
        patterns_[colour][cell].fill(kNone);
        refresh_cell(colour, cell);
    }
}

}  // namespace pyaz::mentor
