# GoogleTest, three ways, in this order:
# 1. FETCHCONTENT_SOURCE_DIR_GOOGLETEST names a source folder (offline machines; Debian ships
#    one in /usr/src/googletest): built from there, no network.
# 2. An installed GoogleTest that find_package finds (Debian's libgtest-dev, the GPU machines).
# 3. Otherwise FetchContent downloads a pinned release.
option(COURSE_USE_INSTALLED_GTEST "Use an installed GoogleTest when find_package finds one" ON)

if(NOT FETCHCONTENT_SOURCE_DIR_GOOGLETEST AND COURSE_USE_INSTALLED_GTEST)
  find_package(GTest QUIET)
endif()

if(GTest_FOUND)
  message(STATUS "GoogleTest: installed (${GTest_DIR}${GTEST_INCLUDE_DIRS})")
else()
  include(FetchContent)
  if(FETCHCONTENT_SOURCE_DIR_GOOGLETEST)
    message(STATUS "GoogleTest: from source folder ${FETCHCONTENT_SOURCE_DIR_GOOGLETEST}")
  else()
    message(STATUS "GoogleTest: downloading release 1.15.2")
  endif()
  FetchContent_Declare(googletest
    GIT_REPOSITORY https://github.com/google/googletest.git
    GIT_TAG v1.15.2
    GIT_SHALLOW TRUE)
  set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
  set(BUILD_GMOCK OFF CACHE BOOL "" FORCE)
  FetchContent_MakeAvailable(googletest)
  if(NOT TARGET GTest::gtest)
    add_library(GTest::gtest ALIAS gtest)
    add_library(GTest::gtest_main ALIAS gtest_main)
  endif()
endif()

include(GoogleTest)
