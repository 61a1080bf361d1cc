/// @file tools/bank_map/expression.hpp
/// @brief `--index EXPR`: an integer expression in the lane `l`, parsed once and evaluated per
/// lane with C's operators, precedence and integer division.
///
///     (l%8)*32 + l/8      lane 9 -> (1)*32 + 1 = 33
///
/// Grammar, lowest precedence first (C's levels; no comparisons, no assignment):
///     or    := xor ('|' xor)*
///     xor   := and ('^' and)*
///     and   := shift ('&' shift)*
///     shift := sum (('<<' | '>>') sum)*
///     sum   := term (('+' | '-') term)*
///     term  := unary (('*' | '/' | '%') unary)*
///     unary := ('-' | '+' | '~') unary | atom
///     atom  := NUMBER | 'l' | ('min' | 'max') '(' or ',' or ')' | '(' or ')'
/// NUMBER is decimal or 0x hexadecimal (a leading 0 is refused: C would read it as octal).
/// Values are 64-bit signed; an overflow, a division or modulo by zero, or a shift by less than
/// 0 or more than 63 (or of a negative value) is an error at the operator, never a wrapped value.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace bank_map {

/// A bad expression, or one that cannot be evaluated for some lane. `what()` reads
/// "position P: ...", P counted from 1 over the expression's characters.
struct ExpressionError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Parentheses, unary operators and min/max calls nest at most this deep.
inline constexpr int kMaxExpressionDepth = 100;

/// A parsed expression in the lane `l`.
class Expression {
public:
  /// Parses `text`. Throws ExpressionError naming the position of the first problem.
  explicit Expression(const std::string& text);

  /// The value for lane `lane`. Throws ExpressionError naming the operator and the lane.
  std::int64_t at(int lane) const;

private:
  friend class Parser;

  /// One node of the parsed tree: a number, the lane, or an operator on earlier nodes.
  struct Node {
    char op = 0;            ///< 'n' number, 'l' the lane, 'u' unary minus, 'm' min, 'M' max,
                            ///< '<' <<, '>' >>, or the operator's own character.
    std::int64_t value = 0; ///< The number, for 'n'.
    int left = -1;          ///< Index of the first (or only) operand.
    int right = -1;         ///< Index of the second operand.
    int position = 0;       ///< 1-based position of the operator or operand in the text.
  };

  std::int64_t eval(int node, int lane) const;

  std::vector<Node> nodes_;
  int root_ = -1;
};

} // namespace bank_map
