#include "search/gomoku_mentor_alphabeta.h"

#include <algorithm>

namespace pyaz::mentor {
namespace {

// Move-ordering weights of a threat: making it (attack) or taking its cell from the opponent.
constexpr std::array<int, kNumThreats> kAttack = {0, 400, 3000, 500, 8000, 20000, 1000000};
constexpr std::array<int, kNumThreats> kDefend = {0, 300, 2000, 250, 5000, 10000, 500000};

// Moves searched below the root, by ply: the pattern-ordered best few.
int width_at(int ply) { return ply <= 1 ? 16 : ply == 2 ? 12 : 10; }

constexpr int kMateBound = kWin - 1000;  // scores beyond this are wins or losses in plies

// Mate scores are stored relative to the node, so that a transposition reached at another
// ply still reports the right distance to the win.
int to_table(int score, int ply) {
    if (score > kMateBound) return score + ply;
    if (score < -kMateBound) return score - ply;
    return score;
}
int from_table(int score, int ply) {
    if (score > kMateBound) return score - ply;
    if (score < -kMateBound) return score + ply;
    return score;
}

}  // namespace

int move_priority(const Board& board, int colour, int cell) {
    const int other = colour ^ 1;
    return kAttack[board.threat(colour, cell)] + kDefend[board.threat(other, cell)] +
           board.value(colour, cell) + board.value(other, cell);
}

RootResult AlphaBeta::run(std::vector<int> root_moves, int max_depth, int margin) {
    const int colour = board_.to_move();
    std::stable_sort(root_moves.begin(), root_moves.end(), [&](int a, int b) {
        return move_priority(board_, colour, a) > move_priority(board_, colour, b);
    });
    RootResult result;
    result.move = root_moves.front();
    for (int depth = 1; depth <= max_depth; ++depth) {
        std::vector<std::pair<int, int>> scores;
        int best = -kInfinity;
        int best_move = kNoCell;
        for (int move : root_moves) {
            const int floor = margin > 0 && best > -kMateBound ? best - margin : best;
            int score = 0;
            if (!search_root_move(move, depth, floor, scores.empty(), score)) break;
            scores.emplace_back(move, score);
            if (score > best) {
                best = score;
                best_move = move;
            }
        }
        if (scores.size() < root_moves.size()) {
            // Stopped mid-iteration: a move that beat the previous best (searched first) at
            // the new depth is better; the random choice keeps to the completed iteration.
            if (best_move != kNoCell && best_move != result.move) {
                result.move = best_move;
                result.score = best;
                result.scores = {{best_move, best}};
            }
            break;
        }
        std::stable_sort(scores.begin(), scores.end(),
                         [](const auto& a, const auto& b) { return a.second > b.second; });
        for (std::size_t i = 0; i < scores.size(); ++i) root_moves[i] = scores[i].first;
        result = {best_move, best, depth, scores};
        // A proven result does not change with depth.
        if (best > kMateBound || best < -kMateBound) break;
    }
    return result;
}

bool AlphaBeta::search_root_move(int move, int depth, int floor, bool first, int& score) {
    board_.play(move);
    if (first) {
        score = -search(depth - 1, -kInfinity, kInfinity, 1);
    } else {
        // Null window: does it beat the floor? Then an exact score above it.
        score = -search(depth - 1, -(floor + 1), -floor, 1);
        if (score > floor && !budget_.stopped()) score = -search(depth - 1, -kInfinity, -floor, 1);
    }
    board_.undo();
    return !budget_.stopped();
}

bool AlphaBeta::decided(int ply, int& score) const {
    const int colour = board_.to_move();
    const int other = colour ^ 1;
    if (board_.count(colour, kFiveThreat) > 0) {
        score = kWin - (ply + 1);
        return true;
    }
    const int their_fives = board_.count(other, kFiveThreat);
    if (their_fives >= 2) {
        score = -(kWin - (ply + 2));
        return true;
    }
    if (their_fives == 0 && board_.count_at_least(colour, kWinningFour) > 0) {
        score = kWin - (ply + 3);  // an open four (or two fours) now, five after any reply
        return true;
    }
    return false;
}

int AlphaBeta::search(int depth, int alpha, int beta, int ply) {
    if (budget_.tick()) return 0;
    int score = 0;
    if (decided(ply, score)) return score;
    if (ply >= kMaxPly) return leaf_value();
    const int other = board_.to_move() ^ 1;
    if (board_.count(other, kFiveThreat) == 1) {
        // The block is forced: it costs no depth.
        board_.play(board_.find(other, kFiveThreat));
        score = -search(depth, -beta, -alpha, ply + 1);
        board_.undo();
        return score;
    }
    if (depth <= 0) return leaf_value();

    const int alpha_in = alpha;
    int table_move = kNoCell;
    if (const MoveTable::Entry* entry = table_.probe(board_.hash())) {
        table_move = entry->move;
        if (entry->depth >= depth) {
            const int stored = from_table(entry->score, ply);
            if (entry->bound == MoveTable::kExact) return stored;
            if (entry->bound == MoveTable::kLower && stored >= beta) return stored;
            if (entry->bound == MoveTable::kUpper && stored <= alpha) return stored;
        }
    }
    std::vector<int>& moves = moves_[ply];
    generate(ply, table_move, moves);
    if (moves.empty()) return leaf_value();

    int best = -kInfinity;
    int best_move = moves.front();
    for (std::size_t i = 0; i < moves.size(); ++i) {
        board_.play(moves[i]);
        if (i == 0) {
            score = -search(depth - 1, -beta, -alpha, ply + 1);
        } else {
            score = -search(depth - 1, -alpha - 1, -alpha, ply + 1);
            if (score > alpha && score < beta) score = -search(depth - 1, -beta, -alpha, ply + 1);
        }
        board_.undo();
        if (budget_.stopped()) return 0;
        if (score > best) {
            best = score;
            best_move = moves[i];
            alpha = std::max(alpha, score);
            if (alpha >= beta) break;
        }
    }
    const auto bound = best <= alpha_in ? MoveTable::kUpper
                       : best >= beta   ? MoveTable::kLower
                                        : MoveTable::kExact;
    table_.store(board_.hash(), depth, to_table(best, ply), bound, best_move);
    return best;
}

int AlphaBeta::leaf_value() const {
    const int colour = board_.to_move();
    const int other = colour ^ 1;
    int value = board_.evaluate();
    // The side to move plays first: a four-three of its own usually wins, a double three
    // often does unless the opponent has fours to gain time with.
    if (board_.count(colour, kFourThree) > 0) {
        value += 2000;
    } else if (board_.count(colour, kThreeThree) > 0 && board_.count_at_least(other, kFour) == 0) {
        value += 800;
    }
    return value;
}

void AlphaBeta::generate(int ply, int table_move, std::vector<int>& out) {
    out.clear();
    const int colour = board_.to_move();
    if (board_.count_at_least(colour ^ 1, kWinningFour) > 0) {
        // The opponent threatens an open four: only its stopping cells and our fours can help.
        out = threats_.defences_against_open_four();
    } else {
        std::vector<std::pair<int, int>> ranked;
        for (int cell : board_.cells()) {
            if (board_.is_candidate(cell)) ranked.emplace_back(move_priority(board_, colour, cell), cell);
        }
        const std::size_t width = std::min<std::size_t>(ranked.size(), width_at(ply));
        std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(width), ranked.end(),
                          [](const auto& a, const auto& b) {
                              return a.first != b.first ? a.first > b.first : a.second < b.second;
                          });
        for (std::size_t i = 0; i < width; ++i) out.push_back(ranked[i].second);
    }
    const auto it = std::find(out.begin(), out.end(), table_move);
    if (it != out.end()) std::rotate(out.begin(), it, it + 1);
}

}  // namespace pyaz::mentor
