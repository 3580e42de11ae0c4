#include "games/common.h"

#include <cctype>
#include <sstream>

namespace pyaz {
namespace {

std::string trim(const std::string& s) {
    const auto first = s.find_first_not_of(" \t\r");
    if (first == std::string::npos) return "";
    const auto last = s.find_last_not_of(" \t\r");
    return s.substr(first, last - first + 1);
}

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// A header line holds only column names: "a b c ..." from 'a' in order, or digits and spaces.
bool is_header(const std::string& line) {
    std::string letters;
    bool all_digit = true;
    for (char c : line) {
        if (c == ' ') continue;
        letters += c;
        all_digit = all_digit && std::isdigit(static_cast<unsigned char>(c));
    }
    if (all_digit) return true;
    return std::string("abcdefghijklmnopqrstuvwxyz").compare(0, letters.size(), letters) == 0;
}

int parse_side_line(const std::string& line) {
    const std::string l = lower(line);
    const std::string side = trim(l.substr(0, l.find("to move")));
    if (side == "x" || side == "black") return 0;
    if (side == "o" || side == "white") return 1;
    fail("cannot read the side to move from '" + line + "' (expected 'X to move' or 'O to move')");
}

Cell parse_cell(char c, const std::string& line) {
    switch (c) {
        case '.': case '-': case '+': return kEmpty;
        case 'X': case 'x': case 'B': case '#': return kFirst;
        case 'O': case 'o': case 'W': return kSecond;
        default:
            fail(std::string("unexpected character '") + c + "' in board row '" + line +
                 "' (cells are '.', 'X' or 'O')");
    }
}

std::vector<Cell> parse_row(const std::string& line) {
    std::string body = trim(line);
    // Row numbers may stand on either side of the cells.
    while (!body.empty() && std::isdigit(static_cast<unsigned char>(body.front()))) body.erase(0, 1);
    while (!body.empty() && std::isdigit(static_cast<unsigned char>(body.back()))) body.pop_back();
    std::vector<Cell> row;
    for (char c : body) {
        if (c == ' ' || c == '\t' || c == '|') continue;
        row.push_back(parse_cell(c, line));
    }
    return row;
}

}  // namespace

void check_ascii(const std::string& text, const std::string& what) {
    int line = 1;
    int column = 1;
    for (std::size_t i = 0; i < text.size(); ++i, ++column) {
        const auto byte = static_cast<unsigned char>(text[i]);
        if (byte == '\n') {
            ++line;
            column = 0;
        }
        if (byte < 0x80) continue;
        // The whole UTF-8 sequence, so that the message (a Python str) names the character.
        std::size_t end = i + 1;
        while (end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) ++end;
        fail(what + " must be ASCII; found '" + text.substr(i, end - i) + "' at line " + std::to_string(line) +
             ", column " + std::to_string(column));
    }
}

ParsedGrid parse_grid(const std::string& text) {
    check_ascii(text, "board text");
    ParsedGrid grid;
    std::istringstream lines(text);
    std::string raw;
    while (std::getline(lines, raw)) {
        const std::string line = trim(raw);
        if (line.empty()) continue;
        const std::string l = lower(line);
        if (l.find("to move") != std::string::npos) {
            grid.side_to_move = parse_side_line(line);
            continue;
        }
        if (l.rfind("game over", 0) == 0) continue;
        if (is_header(line)) continue;
        grid.rows.push_back(parse_row(line));
    }
    if (grid.rows.empty()) fail("no board rows found in the text");
    const std::size_t width = grid.rows.front().size();
    for (const auto& row : grid.rows) {
        if (row.size() != width) {
            fail("board rows have different lengths (" + std::to_string(width) + " and " +
                 std::to_string(row.size()) + ")");
        }
    }
    return grid;
}

std::string format_grid(const std::vector<std::vector<Cell>>& rows, bool column_digits,
                        bool row_numbers) {
    static const char kCellChar[] = {'.', 'X', 'O'};
    const int width = rows.empty() ? 0 : static_cast<int>(rows.front().size());
    std::string header = row_numbers ? "   " : "";
    for (int c = 0; c < width; ++c) {
        header += column_digits ? std::to_string(c + 1) : std::string(1, static_cast<char>('a' + c));
        header += c + 1 < width ? " " : "";
    }
    std::string out = column_digits ? "" : header + "\n";
    for (std::size_t r = 0; r < rows.size(); ++r) {
        if (row_numbers) {
            const std::string number = std::to_string(r + 1);
            out += (number.size() < 2 ? " " : "") + number + " ";
        }
        for (int c = 0; c < width; ++c) {
            out += kCellChar[rows[r][c]];
            out += c + 1 < width ? " " : "";
        }
        out += "\n";
    }
    if (column_digits) out += header + "\n";
    return out;
}

std::string status_line(Status status, int to_move) {
    switch (status) {
        case Status::kOngoing: return to_move == 0 ? "X to move" : "O to move";
        case Status::kDraw: return "game over: draw";
        case Status::kFirstPlayerWin: return "game over: X wins";
        case Status::kSecondPlayerWin: return "game over: O wins";
    }
    return "";
}

std::string coord_name(int row, int col) {
    return std::string(1, static_cast<char>('a' + col)) + std::to_string(row + 1);
}

std::pair<int, int> parse_coord(const std::string& text, int height, int width) {
    const std::string t = lower(trim(text));
    if (t.size() < 2 || !std::islower(static_cast<unsigned char>(t[0]))) {
        fail("bad coordinate '" + text + "' (expected a column letter and a row number, e.g. 'c4')");
    }
    for (std::size_t i = 1; i < t.size(); ++i) {
        if (!std::isdigit(static_cast<unsigned char>(t[i]))) {
            fail("bad coordinate '" + text + "' (expected a column letter and a row number)");
        }
    }
    const int col = t[0] - 'a';
    const int row = std::stoi(t.substr(1)) - 1;
    if (col >= width || row < 0 || row >= height) {
        fail("coordinate '" + text + "' is off the " + std::to_string(height) + "x" +
             std::to_string(width) + " board");
    }
    return {row, col};
}

std::vector<std::string> split_moves(const std::string& text) {
    std::vector<std::string> moves;
    std::string current;
    for (char c : text) {
        if (std::isspace(static_cast<unsigned char>(c)) || c == ',' || c == ';') {
            if (!current.empty()) moves.push_back(current);
            current.clear();
        } else {
            current += c;
        }
    }
    if (!current.empty()) moves.push_back(current);
    return moves;
}

}  // namespace pyaz
