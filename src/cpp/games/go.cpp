#include "games/go.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>

namespace pyaz {
namespace {

// Column names of GTP and most Go diagrams: the letter I is skipped.
constexpr char kColumnLetters[] = "ABCDEFGHJKLMNOPQRST";

constexpr std::uint64_t splitmix64(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// Zobrist keys per point and colour (index 0 Black, 1 White), fixed at compile time.
constexpr auto kZobrist = [] {
    std::array<std::array<std::uint64_t, 2>, Go::kMaxPoints> keys{};
    std::uint64_t x = 0x5EED60u;
    for (auto& point : keys) {
        for (auto& key : point) key = splitmix64(x);
    }
    return keys;
}();

std::uint64_t zobrist(int point, int color) { return kZobrist[point][color - 1]; }

std::string trim(const std::string& s) {
    const auto first = s.find_first_not_of(" \t\r");
    if (first == std::string::npos) return "";
    return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// A line of Go column names ("A B C D E F G H J"), which parse_grid would read as a row.
bool is_go_column_header(const std::string& line) {
    std::string letters;
    for (char c : line) {
        if (c == ' ' || c == '\t') continue;
        if (!std::isalpha(static_cast<unsigned char>(c))) return false;
        letters += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    return letters.size() >= 2 && std::string(kColumnLetters).compare(0, letters.size(), letters) == 0;
}

std::string format_score(double score) {
    std::ostringstream text;
    text << (score > 0 ? "B+" : "W+") << std::abs(score);
    return score == 0 ? "0" : text.str();
}

}  // namespace

Go::Go(int size, const GoRules& rules) {
    if (size < kMinSize || size > kMaxSize) {
        fail("Go board size must be between 5 and 19, got " + std::to_string(size));
    }
    komi_ = rules.komi.value_or(default_komi(size));
    if (!std::isfinite(komi_)) fail("komi must be a finite number");
    max_game_length_ = rules.max_game_length.value_or(default_max_game_length(size));
    if (max_game_length_ < 1) {
        fail("max_game_length must be at least 1, got " + std::to_string(max_game_length_));
    }
    if (rules.history < 0 || rules.history > kMaxHistory) {
        fail("history must be between 0 and 7 earlier positions, got " +
             std::to_string(rules.history));
    }
    history_ = rules.history;
    superko_ = rules.superko;
    allow_suicide_ = rules.allow_suicide;
    size_ = static_cast<std::int8_t>(size);
    stride_ = static_cast<std::int8_t>(size + 1);
    color_.fill(kBorder);
    for (int r = 0; r < size; ++r) {
        for (int c = 0; c < size; ++c) {
            const int p = point_of_cell(r, c);
            color_[p] = kEmpty;
            empties_[num_empty_] = static_cast<std::int16_t>(p);
            empty_index_[p] = num_empty_++;
        }
    }
    if (superko_) superko_hashes_.push_back(hash_);
}

GoRules Go::rules() const {
    GoRules rules;
    rules.komi = komi_;
    rules.superko = superko_;
    rules.allow_suicide = allow_suicide_;
    rules.max_game_length = max_game_length_;
    rules.history = history_;
    return rules;
}

// --------------------------------------------------------------------------- legality

bool Go::passes_suicide_rule(int point) const {
    const std::int8_t own = color_of(to_move_);
    bool joins_own = false;
    for (int n : neighbours(point)) {
        const std::int8_t c = color_[n];
        if (c == kEmpty) return true;
        if (c == own) {
            if (!chain_at(n).in_atari()) return true;  // keeps another liberty
            joins_own = true;
        } else if (c != kBorder && chain_at(n).in_atari()) {
            return true;  // captures
        }
    }
    return allow_suicide_ && joins_own;
}

std::uint64_t Go::chain_hash(int point) const {
    std::uint64_t h = 0;
    int stone = point;
    do {
        h ^= zobrist(stone, color_[stone]);
        stone = next_[stone];
    } while (stone != point);
    return h;
}

bool Go::is_superko(int point) const {
    const std::int8_t own = color_of(to_move_);
    const std::int8_t opponent = color_of(to_move_ ^ 1);
    std::uint64_t h = hash_ ^ zobrist(point, own);
    std::array<int, 4> seen{};
    int num_seen = 0;
    const auto first_visit = [&](int head) {
        if (std::find(seen.begin(), seen.begin() + num_seen, head) != seen.begin() + num_seen) {
            return false;
        }
        seen[num_seen++] = head;
        return true;
    };
    bool captures = false;
    bool keeps_liberty = false;
    for (int n : neighbours(point)) {
        if (color_[n] == kEmpty) keeps_liberty = true;
        if (color_[n] == own && !chain_at(n).in_atari()) keeps_liberty = true;
        if (color_[n] == opponent && chain_at(n).in_atari() && first_visit(head_[n])) {
            h ^= chain_hash(n);
            captures = true;
        }
    }
    if (!captures && !keeps_liberty) {  // a (multi-stone) suicide: the whole new chain goes
        h ^= zobrist(point, own);
        for (int n : neighbours(point)) {
            if (color_[n] == own && first_visit(head_[n])) h ^= chain_hash(n);
        }
    }
    return std::find(superko_hashes_.begin(), superko_hashes_.end(), h) != superko_hashes_.end();
}

bool Go::is_legal_on_empty(int point) const {
    if (point == ko_point_ || !passes_suicide_rule(point)) return false;
    return !superko_ || !is_superko(point);
}

bool Go::is_legal(Action action) const {
    if (is_terminal(status_) || action < 0 || action >= num_actions()) return false;
    if (action == pass_action()) return true;
    const int point = point_of(action);
    return color_[point] == kEmpty && is_legal_on_empty(point);
}

int Go::num_legal_actions() const {
    if (is_terminal(status_)) return 0;
    int count = 1;  // pass
    for (int i = 0; i < num_empty_; ++i) count += is_legal_on_empty(empties_[i]) ? 1 : 0;
    return count;
}

void Go::legal_actions(ActionList<kMaxActions>& out) const {
    if (is_terminal(status_)) return;
    for (int r = 0; r < size_; ++r) {
        const int row_start = point_of_cell(r, 0);
        for (int c = 0; c < size_; ++c) {
            const int p = row_start + c;
            if (color_[p] == kEmpty && is_legal_on_empty(p)) out.push_back(r * size_ + c);
        }
    }
    out.push_back(pass_action());
}

// Uniform over the legal actions: draw among the empty points plus the pass; an illegal point
// is moved past the end of the candidates and the draw repeats, so each legal action keeps
// the same chance.
Action Go::random_action(Rng& rng) const {
    std::array<std::int16_t, kMaxSize * kMaxSize> candidates = empties_;
    for (int n = num_empty_;;) {
        const int i = static_cast<int>(rng.below(static_cast<std::uint32_t>(n + 1)));
        if (i == n) return pass_action();
        if (is_legal_on_empty(candidates[i])) return action_of(candidates[i]);
        std::swap(candidates[i], candidates[--n]);
    }
}

void Go::swap_empties(int i, int j) {
    const std::int16_t a = empties_[i];
    const std::int16_t b = empties_[j];
    empties_[i] = b;
    empties_[j] = a;
    empty_index_[b] = static_cast<std::int16_t>(i);
    empty_index_[a] = static_cast<std::int16_t>(j);
}

// The same draw as random_action, reordering the empty-point list in place.
void Go::apply_random(Rng& rng) {
    for (int n = num_empty_;;) {
        const int i = static_cast<int>(rng.below(static_cast<std::uint32_t>(n + 1)));
        if (i == n) {
            pass();
            return;
        }
        const int p = empties_[i];
        if (is_legal_on_empty(p)) {
            play(p);
            return;
        }
        swap_empties(i, --n);
    }
}

// --------------------------------------------------------------------------- moves

void Go::place_on_empty(int point, std::int8_t color) {
    color_[point] = color;
    hash_ ^= zobrist(point, color);
    if (history_ > 0) now_.flip(color - 1, action_of(point));
    const int i = empty_index_[point];
    const std::int16_t last = empties_[--num_empty_];
    empties_[i] = last;
    empty_index_[last] = static_cast<std::int16_t>(i);
}

void Go::clear_point(int point) {
    hash_ ^= zobrist(point, color_[point]);
    if (history_ > 0) now_.flip(color_[point] - 1, action_of(point));
    color_[point] = kEmpty;
    empties_[num_empty_] = static_cast<std::int16_t>(point);
    empty_index_[point] = num_empty_++;
}

void Go::merge_chain_into(int head, int other_head) {
    Chain& into = chains_[head];
    const Chain& from = chains_[other_head];
    into.pseudo_liberties = static_cast<std::uint16_t>(into.pseudo_liberties + from.pseudo_liberties);
    into.stones = static_cast<std::uint16_t>(into.stones + from.stones);
    into.liberty_sum += from.liberty_sum;
    into.liberty_sum_squares += from.liberty_sum_squares;
    int stone = other_head;
    do {
        head_[stone] = static_cast<std::int16_t>(head);
        stone = next_[stone];
    } while (stone != other_head);
    std::swap(next_[head], next_[other_head]);  // splice the two circular lists
}

void Go::join_chains_around(int point, std::int8_t color) {
    int head = kNoPoint;
    for (int n : neighbours(point)) {
        if (color_[n] != color) continue;
        if (head == kNoPoint || chains_[head_[n]].stones > chains_[head].stones) head = head_[n];
    }
    if (head == kNoPoint) {
        head_[point] = next_[point] = static_cast<std::int16_t>(point);
        chains_[point] = Chain{0, 1, 0, 0};
    } else {
        for (int n : neighbours(point)) {
            if (color_[n] == color && head_[n] != head) merge_chain_into(head, head_[n]);
        }
        head_[point] = static_cast<std::int16_t>(head);
        next_[point] = next_[head];
        next_[head] = static_cast<std::int16_t>(point);
        ++chains_[head].stones;
    }
    Chain& chain = chain_at(point);
    for (int n : neighbours(point)) {
        if (color_[n] == kEmpty) chain.add_liberty(n);
    }
}

void Go::add_stone(int point, std::int8_t color) {
    join_chains_around(point, color);
    place_on_empty(point, color);
    for (int n : neighbours(point)) {
        if (is_stone(n)) chain_at(n).remove_liberty(point);
    }
}

int Go::remove_chain(int point) {
    const int head = head_[point];
    int removed = 0;
    int stone = point;
    do {
        const int next = next_[stone];
        clear_point(stone);
        ++removed;
        for (int n : neighbours(stone)) {
            if (is_stone(n) && head_[n] != head) chain_at(n).add_liberty(stone);
        }
        stone = next;
    } while (stone != point);
    return removed;
}

void Go::play(int point) {
    if (history_ > 0) past_[ply_ % kMaxHistory] = now_;
    const std::int8_t opponent = color_of(to_move_ ^ 1);
    add_stone(point, color_of(to_move_));
    int captured = 0;
    int captured_point = kNoPoint;
    for (int n : neighbours(point)) {
        if (color_[n] != opponent || chain_at(n).pseudo_liberties != 0) continue;
        if (chain_at(n).stones == 1) captured_point = n;
        captured += remove_chain(n);
    }
    captures_[to_move_] += captured;
    const Chain& own = chain_at(point);
    if (own.pseudo_liberties == 0) {  // suicide (only reached when allowed)
        captures_[to_move_ ^ 1] += remove_chain(point);
        ko_point_ = kNoPoint;
    } else {
        // A lone stone that took a lone stone and has that point as its only liberty.
        const bool ko = captured == 1 && own.stones == 1 && own.pseudo_liberties == 1;
        ko_point_ = static_cast<std::int16_t>(ko ? captured_point : kNoPoint);
    }
    passes_ = 0;
    if (superko_) superko_hashes_.push_back(hash_);
    end_turn();
}

void Go::pass() {
    if (history_ > 0) past_[ply_ % kMaxHistory] = now_;
    ++passes_;
    ko_point_ = kNoPoint;
    end_turn();
}

void Go::end_turn() {
    ++ply_;
    to_move_ ^= 1;
    if (passes_ >= 2 || ply_ >= max_game_length_) finish_game();
}

void Go::finish_game() {
    const double s = score();
    status_ = s > 0 ? Status::kFirstPlayerWin : s < 0 ? Status::kSecondPlayerWin : Status::kDraw;
}

// --------------------------------------------------------------------------- scoring

std::array<int, 2> Go::area() const {
    std::array<int, 2> area{};
    std::array<bool, kMaxPoints> seen{};
    std::array<std::int16_t, kMaxSize * kMaxSize> stack{};
    for (int r = 0; r < size_; ++r) {
        for (int p = point_of_cell(r, 0), end = p + size_; p < end; ++p) {
            if (is_stone(p)) {
                ++area[color_[p] - 1];
                continue;
            }
            if (seen[p]) continue;
            // Flood the empty region through p, noting which colours it reaches.
            int region = 0;
            int reaches = 0;  // bit 0: Black, bit 1: White
            int top = 0;
            stack[top++] = static_cast<std::int16_t>(p);
            seen[p] = true;
            while (top > 0) {
                const int q = stack[--top];
                ++region;
                for (int n : neighbours(q)) {
                    if (color_[n] == kEmpty && !seen[n]) {
                        seen[n] = true;
                        stack[top++] = static_cast<std::int16_t>(n);
                    } else if (is_stone(n)) {
                        reaches |= color_[n];
                    }
                }
            }
            if (reaches == 1) area[0] += region;
            if (reaches == 2) area[1] += region;
        }
    }
    return area;
}

double Go::score() const {
    const std::array<int, 2> a = area();
    return a[0] - a[1] - komi_;
}

double Go::final_score(int player) const {
    const double margin = (player == 0 ? score() : -score()) / (size_ * size_);
    return std::clamp(margin, -1.0, 1.0);
}

// --------------------------------------------------------------------------- planes and text

void Go::encode(float* out) const {
    const int area = size_ * size_;
    const std::int8_t own = color_of(to_move_);
    const float black_to_move = to_move_ == 0 ? 1.0f : 0.0f;
    for (int r = 0; r < size_; ++r) {
        for (int c = 0; c < size_; ++c) {
            const std::int8_t color = color_[point_of_cell(r, c)];
            const int i = r * size_ + c;
            out[i] = color == own ? 1.0f : 0.0f;
            out[area + i] = color != own && color != kEmpty ? 1.0f : 0.0f;
            out[2 * area + i] = color == kEmpty ? 1.0f : 0.0f;
            out[3 * area + i] = black_to_move;
        }
    }
    if (history_ > 0) encode_history(out + kNumPlanes * area);
}

void Go::encode_history(float* out) const {
    const int area = size_ * size_;
    for (int t = 1; t <= history_; ++t, out += 2 * area) {
        if (ply_ - t < 0) {
            std::fill(out, out + 2 * area, 0.0f);
            continue;
        }
        const Position& position = past_[(ply_ - t) % kMaxHistory];
        const auto& own = position.stones[to_move_];
        const auto& opponent = position.stones[to_move_ ^ 1];
        for (int a = 0; a < area; ++a) {
            out[a] = static_cast<float>((own[a >> 6] >> (a & 63)) & 1);
            out[area + a] = static_cast<float>((opponent[a >> 6] >> (a & 63)) & 1);
        }
    }
}

std::string Go::to_string() const {
    static const char kCellChar[] = {'.', 'X', 'O'};
    std::string header = "   ";
    for (int c = 0; c < size_; ++c) {
        header += kColumnLetters[c];
        header += c + 1 < size_ ? " " : "\n";
    }
    std::string out = header;
    for (int r = 0; r < size_; ++r) {
        const std::string number = std::to_string(size_ - r);
        out += (number.size() < 2 ? " " : "") + number + " ";
        for (int c = 0; c < size_; ++c) {
            out += kCellChar[cell(r, c)];
            out += ' ';
        }
        out += number + "\n";
    }
    out += header + status_line(status_, to_move_);
    if (is_terminal(status_)) out += " (" + format_score(score()) + ")";
    return out + "\n";
}

std::string Go::action_to_string(Action action) const {
    if (action < 0 || action >= num_actions()) {
        fail("action " + std::to_string(action) + " is out of range for Go " +
             std::to_string(size_) + "x" + std::to_string(size_));
    }
    if (action == pass_action()) return "pass";
    return kColumnLetters[action % size_] + std::to_string(size_ - action / size_);
}

Action Go::parse_action(const std::string& text) const {
    const std::string t = lower(trim(text));
    if (t == "pass") return pass_action();
    const std::string expected = " (expected a vertex such as 'D4', columns A..T without I, or 'pass')";
    if (t.size() < 2 || !std::isalpha(static_cast<unsigned char>(t[0]))) {
        fail("bad Go move '" + text + "'" + expected);
    }
    for (std::size_t i = 1; i < t.size(); ++i) {
        if (!std::isdigit(static_cast<unsigned char>(t[i]))) fail("bad Go move '" + text + "'" + expected);
    }
    if (t[0] == 'i') fail("bad Go move '" + text + "': Go columns skip the letter I");
    const int col = t[0] < 'i' ? t[0] - 'a' : t[0] - 'a' - 1;
    const int number = t.size() > 3 ? 0 : std::stoi(t.substr(1));
    if (col >= size_ || number < 1 || number > size_) {
        fail("Go move '" + text + "' is off the " + std::to_string(size_) + "x" +
             std::to_string(size_) + " board");
    }
    return (size_ - number) * size_ + col;
}

Go Go::with_stones(const std::vector<Action>& black, const std::vector<Action>& white,
                   int to_move) const {
    if (to_move != 0 && to_move != 1) fail("to_move must be 0 (Black) or 1 (White)");
    Go state(size_, rules());
    const std::vector<Action>* lists[2] = {&black, &white};
    for (int player = 0; player < 2; ++player) {
        for (Action a : *lists[player]) {
            if (a < 0 || a >= size_ * size_) {
                fail("setup stone " + std::to_string(a) + " is not a point of the " +
                     std::to_string(size_) + "x" + std::to_string(size_) + " board");
            }
            if (state.color_[state.point_of(a)] != kEmpty) {
                fail("setup point " + action_to_string(a) + " is given twice");
            }
            state.add_stone(state.point_of(a), color_of(player));
        }
    }
    for (int a = 0; a < size_ * size_; ++a) {
        const int p = state.point_of(a);
        if (state.is_stone(p) && state.chain_at(p).pseudo_liberties == 0) {
            fail("impossible Go position: the chain at " + action_to_string(a) + " has no liberties");
        }
    }
    state.to_move_ = static_cast<std::int8_t>(to_move);
    if (superko_) state.superko_hashes_.assign(1, state.hash_);
    return state;
}

Go Go::from_text(const std::string& text, const GoRules& rules) {
    std::istringstream lines(text);
    std::string line;
    std::string board_text;
    while (std::getline(lines, line)) {
        if (!is_go_column_header(trim(line))) board_text += line + "\n";
    }
    const ParsedGrid grid = parse_grid(board_text);
    const int n = static_cast<int>(grid.rows.size());
    if (static_cast<int>(grid.rows.front().size()) != n) {
        fail("a Go board must be square, got " + std::to_string(n) + " rows of " +
             std::to_string(grid.rows.front().size()));
    }
    std::vector<Action> stones[2];
    for (int r = 0; r < n; ++r) {
        for (int c = 0; c < n; ++c) {
            if (grid.rows[r][c] != kEmpty) stones[grid.rows[r][c] - 1].push_back(r * n + c);
        }
    }
    return Go(n, rules).with_stones(stones[0], stones[1], std::max(grid.side_to_move, 0));
}

}  // namespace pyaz
