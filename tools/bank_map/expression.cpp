#include "expression.hpp"

#include <cctype>
#include <cstdint>
#include <limits>

namespace bank_map {
namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
/// Shift counts C defines for a 64-bit value.
constexpr std::int64_t kMaxShift = 63;

[[noreturn]] void fail(int position, const std::string& what) {
  throw ExpressionError("position " + std::to_string(position) + ": " + what);
}

bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

} // namespace

/// Recursive descent over the grammar in expression.hpp. Nodes are appended operands first,
/// so every node's operands sit at smaller indices than the node itself.
class Parser {
public:
  Parser(const std::string& text, std::vector<Expression::Node>& nodes)
      : text_(text), nodes_(nodes) {}

  int parse() {
    const int root = binary(0);
    skip_space();
    if (at_end()) {
      return root;
    }
    fail(position(), "unexpected " + describe_token());
  }

private:
  /// Binary operators by C precedence level, lowest first ("<" and ">" stand for << and >>).
  static constexpr const char* kLevels[] = {"|", "^", "&", "<>", "+-", "*/%"};
  static constexpr int kNumLevels = sizeof kLevels / sizeof kLevels[0];

  int binary(int level) {
    if (level == kNumLevels) {
      return unary();
    }
    int left = binary(level + 1);
    for (;;) {
      skip_space();
      const char op = binary_operator(kLevels[level]);
      if (op == 0) {
        return left;
      }
      const int where = position();
      i_ += (op == '<' || op == '>') ? 2 : 1;
      const int right = binary(level + 1);
      left = add({op, 0, left, right, where});
    }
  }

  /// The operator at the cursor if it belongs to `ops`, else 0.
  char binary_operator(const char* ops) const {
    if (at_end()) {
      return 0;
    }
    const char c = text_[i_];
    const bool doubled = i_ + 1 < text_.size() && text_[i_ + 1] == c;
    for (const char* op = ops; *op; ++op) {
      if ((*op == '<' || *op == '>') ? (c == *op && doubled) : c == *op) {
        return *op;
      }
    }
    return 0;
  }

  int unary() {
    skip_space();
    if (!at_end() && (text_[i_] == '-' || text_[i_] == '+' || text_[i_] == '~')) {
      const char c = text_[i_];
      const int where = position();
      ++i_;
      const Nesting nested(*this, where);
      const int operand = unary();
      return c == '+' ? operand : add({c == '-' ? 'u' : '~', 0, operand, -1, where});
    }
    return atom();
  }

  int atom() {
    skip_space();
    const int where = position();
    if (at_end()) {
      fail(where, "expected a number, l, min(, max( or '(', found the end");
    }
    const char c = text_[i_];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      return add({'n', number(), -1, -1, where});
    }
    if (is_name_char(c)) {
      return name();
    }
    if (c == '(') {
      ++i_;
      const Nesting nested(*this, where);
      const int inner = binary(0);
      expect(')', "expected ')' (opened at position " + std::to_string(where) + ")");
      return inner;
    }
    fail(where, "expected a number, l, min(, max( or '(', found " + describe_token());
  }

  int name() {
    const int where = position();
    const std::size_t start = i_;
    while (!at_end() && is_name_char(text_[i_])) {
      ++i_;
    }
    const std::string word = text_.substr(start, i_ - start);
    if (word == "l") {
      return add({'l', 0, -1, -1, where});
    }
    if (word != "min" && word != "max") {
      fail(where, "unknown name '" + word + "' (the lane is l)");
    }
    expect('(', "expected '(' after " + word);
    const Nesting nested(*this, where);
    const int first = binary(0);
    expect(',', "expected ',' after " + word + "'s first argument");
    const int second = binary(0);
    expect(')', "expected ')' closing " + word + "(");
    return add({word == "min" ? 'm' : 'M', 0, first, second, where});
  }

  std::int64_t number() {
    const int where = position();
    const std::size_t start = i_;
    while (!at_end() && is_name_char(text_[i_])) {
      ++i_;
    }
    const std::string token = text_.substr(start, i_ - start);
    const bool hex = token.size() > 1 && (token[1] == 'x' || token[1] == 'X') && token[0] == '0';
    const std::string digits = hex ? token.substr(2) : token;
    const int base = hex ? 16 : 10;
    if (digits.empty()) {
      fail(where, "'" + token + "' has no hexadecimal digits");
    }
    if (!hex && token.size() > 1 && token[0] == '0') {
      fail(where, "'" + token + "' has a leading zero (C reads it as octal)");
    }
    std::int64_t value = 0;
    for (const char d : digits) {
      const int v = std::isdigit(static_cast<unsigned char>(d)) ? d - '0'
                    : std::isxdigit(static_cast<unsigned char>(d))
                        ? std::tolower(static_cast<unsigned char>(d)) - 'a' + 10
                        : base;
      if (v >= base) {
        fail(where, "'" + token + "' is not a number");
      }
      if (value > (kMax - v) / base) {
        fail(where, "'" + token + "' is too large (at most " + std::to_string(kMax) + ")");
      }
      value = value * base + v;
    }
    return value;
  }

  void expect(char c, const std::string& what) {
    skip_space();
    if (at_end() || text_[i_] != c) {
      fail(position(), what + ", found " + describe_token());
    }
    ++i_;
  }

  /// The token at the cursor, for an error: "')'", "'lane'", "the end", "character '$'".
  std::string describe_token() const {
    if (at_end()) {
      return "the end";
    }
    const char c = text_[i_];
    if (is_name_char(c)) {
      std::size_t end = i_;
      while (end < text_.size() && is_name_char(text_[end])) {
        ++end;
      }
      return "'" + text_.substr(i_, end - i_) + "'";
    }
    if (std::string("+-*/%^&|~(),").find(c) != std::string::npos ||
        ((c == '<' || c == '>') && i_ + 1 < text_.size() && text_[i_ + 1] == c)) {
      return "'" + std::string(c == '<' || c == '>' ? 2 : 1, c) + "'";
    }
    const bool printable = std::isprint(static_cast<unsigned char>(c));
    std::string what = "character '" + (printable ? std::string(1, c) : std::string("?")) + "'";
    if (c == '<' || c == '>') {
      what += " (shifts are << and >>)";
    }
    return what;
  }

  /// Counts one level of nesting for as long as it lives; too deep is an error.
  class Nesting {
  public:
    Nesting(Parser& p, int where) : p_(p) {
      if (++p_.depth_ > kMaxExpressionDepth) {
        fail(where, "nested more than " + std::to_string(kMaxExpressionDepth) + " deep");
      }
    }
    ~Nesting() { --p_.depth_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;

  private:
    Parser& p_;
  };

  int add(const Expression::Node& n) {
    nodes_.push_back(n);
    return static_cast<int>(nodes_.size()) - 1;
  }
  void skip_space() {
    while (!at_end() && std::isspace(static_cast<unsigned char>(text_[i_]))) {
      ++i_;
    }
  }
  bool at_end() const { return i_ >= text_.size(); }
  int position() const { return static_cast<int>(i_) + 1; }

  const std::string& text_;
  std::vector<Expression::Node>& nodes_;
  std::size_t i_ = 0;
  int depth_ = 0;
};

Expression::Expression(const std::string& text) {
  root_ = Parser(text, nodes_).parse();
}

std::int64_t Expression::at(int lane) const {
  // Operands come before their operator, so one pass in order evaluates the whole tree.
  std::vector<std::int64_t> v(nodes_.size());
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    const Node& n = nodes_[i];
    const std::int64_t a = n.left >= 0 ? v[static_cast<std::size_t>(n.left)] : 0;
    const std::int64_t b = n.right >= 0 ? v[static_cast<std::size_t>(n.right)] : 0;
    const std::string at_lane = " at lane " + std::to_string(lane);
    auto overflow = [&] { fail(n.position, "overflow" + at_lane); };
    std::int64_t r = 0;
    switch (n.op) {
    case 'n':
      r = n.value;
      break;
    case 'l':
      r = lane;
      break;
    case 'u':
      if (a == kMin) {
        overflow();
      }
      r = -a;
      break;
    case '~':
      r = ~a;
      break;
    case 'm':
      r = a < b ? a : b;
      break;
    case 'M':
      r = a > b ? a : b;
      break;
    case '+':
      if (__builtin_add_overflow(a, b, &r)) {
        overflow();
      }
      break;
    case '-':
      if (__builtin_sub_overflow(a, b, &r)) {
        overflow();
      }
      break;
    case '*':
      if (__builtin_mul_overflow(a, b, &r)) {
        overflow();
      }
      break;
    case '/':
    case '%':
      if (b == 0) {
        fail(n.position, std::string(n.op == '/' ? "division" : "modulo") + " by zero" + at_lane);
      }
      if (a == kMin && b == -1) {
        overflow();
      }
      r = n.op == '/' ? a / b : a % b; // C: the quotient truncates toward zero
      break;
    case '<':
    case '>':
      if (b < 0 || b > kMaxShift) {
        fail(n.position, "shift by " + std::to_string(b) + at_lane + " (0 to " +
                             std::to_string(kMaxShift) + ")");
      }
      if (a < 0) {
        fail(n.position, "shift of a negative value (" + std::to_string(a) + ")" + at_lane);
      }
      if (n.op == '<' && a > (kMax >> b)) {
        overflow();
      }
      r = n.op == '<' ? a << b : a >> b;
      break;
    case '&':
      r = a & b;
      break;
    case '^':
      r = a ^ b;
      break;
    case '|':
      r = a | b;
      break;
    default:
      throw std::logic_error(std::string("expression: unknown node '") + n.op + "'");
    }
    v[i] = r;
  }
  return v[static_cast<std::size_t>(root_)];
}

} // namespace bank_map
