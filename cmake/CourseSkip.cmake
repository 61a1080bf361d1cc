# A test whose program was not built on purpose reports Skipped, with the reason, in
# GoogleTest's words (so ctest and the course tools read it as a skip):
#   cmake -DTEST=<Suite.Name> -DREASON=<why> -P CourseSkip.cmake
message("${TEST}: Skipped\n${REASON}\n[  SKIPPED ] ${TEST}")
