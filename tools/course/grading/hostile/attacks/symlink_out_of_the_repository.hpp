// attack: exercise.hpp is a symbolic link to a file of the grader's machine (whose contents the grader would copy into the course, and show in its messages)
// lesson: 01
// file: exercise.hpp
// refused: not a regular file
// @symlink /etc/passwd
