#include "search/gomoku_mentor_threats.h"

#include <algorithm>
#include <array>

namespace pyaz::mentor {

bool ThreatSearch::find_vcf(int max_depth, std::vector<int>& line) {
    // Iterative deepening: the shortest VCF, so that a line re-searched after the forced
    // reply is its own remainder or shorter (the fail table makes the repeats cheap).
    for (int depth = 0; depth <= max_depth && !budget_.stopped(); ++depth) {
        path_.clear();
        if (vcf_node(depth)) {
            line = found_;
            return true;
        }
    }
    return false;
}

bool ThreatSearch::find_vct(int max_depth, std::vector<int>& line) {
    for (int depth = 1; depth <= max_depth && !budget_.stopped(); ++depth) {
        path_.clear();
        if (vct_node(depth)) {
            line = found_;
            return true;
        }
    }
    return false;
}

std::vector<int> ThreatSearch::defences_against_open_four() {
    const int opponent = board_.to_move() ^ 1;
    std::vector<int> best;
    for (int y : board_.cells()) {
        if (board_.threat(opponent, y) < kWinningFour) continue;
        board_.pass();
        board_.play(y);
        std::array<int, 8> fives{};
        const int n = board_.fives_near(opponent, y, fives);
        board_.undo();
        board_.undo();
        if (!best.empty() && static_cast<std::size_t>(n + 1) >= best.size()) continue;
        best.assign(fives.begin(), fives.begin() + n);
        best.push_back(y);
    }
    if (best.empty()) return best;
    for (int cell : four_moves()) {
        if (std::find(best.begin(), best.end(), cell) == best.end()) best.push_back(cell);
    }
    sort_by_strength(best, board_.to_move());
    return best;
}

ThreatSearch::Verdict ThreatSearch::immediate_verdict() {
    const int attacker = board_.to_move();
    const int defender = attacker ^ 1;
    if (board_.count(attacker, kFiveThreat) > 0) {
        record({board_.find(attacker, kFiveThreat)});
        return Verdict::kWon;
    }
    const int their_fives = board_.count(defender, kFiveThreat);
    if (their_fives >= 2) return Verdict::kLost;
    if (their_fives == 0 && board_.count_at_least(attacker, kWinningFour) > 0) {
        record_winning_four(board_.find(attacker, kWinningFour));
        return Verdict::kWon;
    }
    return Verdict::kOpen;
}

bool ThreatSearch::vcf_node(int depth) {
    if (budget_.tick()) return false;
    const Verdict verdict = immediate_verdict();
    if (verdict != Verdict::kOpen) return verdict == Verdict::kWon;
    if (depth <= 0 || vcf_fails_.failed(board_.hash(), depth)) return false;

    const int attacker = board_.to_move();
    const int defender = attacker ^ 1;
    std::vector<int> moves;
    if (board_.count(defender, kFiveThreat) == 1) {
        // The four must also block the defender's five.
        const int block = board_.find(defender, kFiveThreat);
        if (board_.threat(attacker, block) >= kFour) moves.push_back(block);
    } else {
        moves = four_moves();
    }
    for (int move : moves) {
        play(move);
        std::array<int, 8> fives{};
        const int n = board_.fives_near(attacker, move, fives);
        bool won = false;
        if (n >= 2) {
            record({fives[0], fives[1]});
            won = true;
        } else if (n == 1) {
            play(fives[0]);  // the only reply
            won = vcf_node(depth - 1);
            undo();
        }
        undo();
        if (won) return true;
        if (budget_.stopped()) return false;
    }
    vcf_fails_.store(board_.hash(), depth);
    return false;
}

bool ThreatSearch::vct_node(int depth) {
    if (budget_.tick()) return false;
    const Verdict verdict = immediate_verdict();
    if (verdict != Verdict::kOpen) return verdict == Verdict::kWon;
    if (depth <= 0 || vct_fails_.failed(board_.hash(), depth)) return false;
    if (vcf_node(limits_.vcf_depth_in_vct)) return true;
    if (budget_.stopped()) return false;

    const int attacker = board_.to_move();
    for (int move : vct_moves()) {
        play(move);
        std::array<int, 8> fives{};
        const int n = board_.fives_near(attacker, move, fives);
        bool won = false;
        if (n >= 2) {
            record({fives[0], fives[1]});
            won = true;
        } else if (n == 1) {
            play(fives[0]);  // a four: the only reply
            won = vct_node(depth - 1);
            undo();
        } else {
            won = defend_node(depth);  // a three
        }
        undo();
        if (won) return true;
        if (budget_.stopped()) return false;
    }
    vct_fails_.store(board_.hash(), depth);
    return false;
}

bool ThreatSearch::defend_node(int depth) {
    // A defender who wins by fours first refutes the three.
    if (vcf_node(limits_.vcf_depth_in_vct) || budget_.stopped()) return false;
    const std::vector<int> defences = defences_against_open_four();
    if (defences.empty()) return false;  // the move was no three after all
    std::vector<int> main_line;
    for (std::size_t i = 0; i < defences.size(); ++i) {
        play(defences[i]);
        const bool won = vct_node(depth - 1);
        undo();
        if (!won) return false;
        if (i == 0) main_line = found_;
    }
    found_ = main_line;  // report the line after the strongest-looking defence
    return true;
}

std::vector<int> ThreatSearch::vct_moves() const {
    const int attacker = board_.to_move();
    const int defender = attacker ^ 1;
    if (board_.count(defender, kFiveThreat) > 0) {
        const int block = board_.find(defender, kFiveThreat);
        if (board_.threat(attacker, block) >= kThree) return {block};
        return {};
    }
    // Against a defender who can make an open four, a three is too slow.
    if (board_.count_at_least(defender, kWinningFour) > 0) return four_moves();
    std::vector<int> moves;
    for (int cell : board_.cells()) {
        if (board_.threat(attacker, cell) >= kThree) moves.push_back(cell);
    }
    sort_by_strength(moves, attacker);
    return moves;
}

std::vector<int> ThreatSearch::four_moves() const {
    const int attacker = board_.to_move();
    std::vector<int> moves;
    int left = board_.count_at_least(attacker, kFour);
    for (auto it = board_.cells().begin(); left > 0 && it != board_.cells().end(); ++it) {
        if (board_.threat(attacker, *it) >= kFour) {
            moves.push_back(*it);
            --left;
        }
    }
    sort_by_strength(moves, attacker);
    return moves;
}

void ThreatSearch::sort_by_strength(std::vector<int>& cells, int colour) const {
    // Stronger threats first, then cells worth more to both sides; ties in board order.
    auto strength = [&](int cell) {
        return board_.threat(colour, cell) * 100000 + board_.value(colour, cell) +
               board_.value(colour ^ 1, cell);
    };
    std::stable_sort(cells.begin(), cells.end(),
                     [&](int a, int b) { return strength(a) > strength(b); });
}

void ThreatSearch::record(std::initializer_list<int> finish) {
    found_ = path_;
    found_.insert(found_.end(), finish.begin(), finish.end());
}

void ThreatSearch::record_winning_four(int cell) {
    const int attacker = board_.to_move();
    play(cell);
    std::array<int, 8> fives{};
    board_.fives_near(attacker, cell, fives);
    // Whichever winning cell the defender takes, the attacker takes the other.
    record({fives[0], fives[1]});
    undo();
}

void ThreatSearch::play(int cell) {
    board_.play(cell);
    path_.push_back(cell);
}

void ThreatSearch::undo() {
    board_.undo();
    path_.pop_back();
}

}  // namespace pyaz::mentor
