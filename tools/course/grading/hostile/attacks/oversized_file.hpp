// attack: an exercise file of hundreds of kilobytes (a lexer or a compiler slowed down, a report flooded)
// lesson: 01
// file: exercise.hpp
// refused: file
// @pad 300000
