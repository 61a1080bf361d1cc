"""The prediction messages check on made-up sources and outputs: it reads each prediction's
constant and question from a test file, and tells a failure that guides from one that shows
the model's value (GoogleTest's `Which is:` for the model's side)."""

from __future__ import annotations

import textwrap
import unittest

from course_testing import lexer_missing
from course.policy.check_predictions import Prediction, judge_failure, predictions_in, split_by_test

SOURCE = textwrap.dedent('''\
    TEST(Predictions, ColumnWavefronts) {
      KIT_EXPECT_PREDICTION(lesson03::kPredictedColumnWavefronts,
                            kit::wavefronts(lesson03::column_read_demo().access),
                            "lane l reads word 32 l: "
                            "which bank is that, for every l?");
    }

    TEST(FindConflict, TheAccessThatConflicts) {
      const kit::TraceEntry* e = conflicting(found(f(1, 2)));
      ASSERT_TRUE(e != nullptr) << "no conflict, \\"as found\\"";
      KIT_EXPECT_PREDICTION(lesson04::kFoundConflictAccess, access_of(*e),
                            "which access costs more? (ask bank-map, \\"--store\\" for stores)");
    }
    ''')

QUESTION = "lane l reads word 32 l: which bank is that, for every l?"
COLUMN = Prediction("Predictions.ColumnWavefronts", "kPredictedColumnWavefronts", QUESTION)
ACCESS = Prediction("FindConflict.TheAccessThatConflicts", "kFoundConflictAccess", "which?")


def run(test: str, body: str) -> str:
    return (f"[ RUN      ] {test}\n{body}[  FAILED  ] {test} (0 ms)\n"
            "[==========] 1 test from 1 test suite ran. (0 ms total)\n")


@unittest.skipIf(lexer_missing(), "the test files are read with libclang's lexer, missing here")
class Sources(unittest.TestCase):
    def test_reads_the_constant_and_the_question_of_each_test(self):
        found = predictions_in(SOURCE)
        self.assertEqual([(p.test, p.name) for p in found],
                         [("Predictions.ColumnWavefronts", "kPredictedColumnWavefronts"),
                          ("FindConflict.TheAccessThatConflicts", "kFoundConflictAccess")])
        self.assertEqual(found[0].question, QUESTION)
        self.assertEqual(found[1].question,
                         'which access costs more? (ask bank-map, "--store" for stores)')

    def test_a_question_that_is_not_a_literal_is_refused(self):
        with self.assertRaises(ValueError):
            predictions_in("TEST(A, B) {\n  KIT_EXPECT_PREDICTION(ns::kX, model(), q);\n}\n")


class Failures(unittest.TestCase):
    def judge(self, p: Prediction, body: str, yours: str, model: str):
        part = split_by_test(run(p.test, body))[p.test]
        return judge_failure(part, p, yours, model)

    def test_a_guiding_failure_is_sound(self):
        body = ("/src/tests/cpu_exercise_predictions_test.cpp:32: Failure\n"
                "Your kPredictedColumnWavefronts is 0, and the bank model disagrees.\n"
                f"  {QUESTION}\n  Work it out.\n")
        self.assertEqual(self.judge(COLUMN, body, "0", "32"), [])

    def test_which_is_for_the_model_is_a_violation(self):
        body = ("/src/tests/cpu_exercise_predictions_test.cpp:12: Failure\n"
                "Expected equality of these values:\n"
                "  lesson03::kPredictedColumnWavefronts\n    Which is: 0\n"
                "  kit::wavefronts(lesson03::column_read_demo().access)\n    Which is: 32\n"
                f"{QUESTION}\n")
        problems = self.judge(COLUMN, body, "0", "32")
        self.assertEqual(len(problems), 1, problems)
        self.assertIn("shows the model's value 32", problems[0])

    def test_a_named_answer_is_a_violation_in_either_spelling(self):
        for shown in ('Which is: "partial load"', "CenterAccess::partial_load"):
            body = f"x.cpp:41: Failure\nYour kFoundConflictAccess is CenterAccess::none\nwhich?\n{shown}\n"
            problems = self.judge(ACCESS, body, "CenterAccess::none",
                                  "CenterAccess::partial_load")
            self.assertEqual(len(problems), 1, (shown, problems))

    def test_a_failure_without_the_question_or_the_value_is_a_violation(self):
        body = "x.cpp:32: Failure\nWrong.\n"
        problems = self.judge(COLUMN, body, "0", "32")
        self.assertEqual(len(problems), 2, problems)

    def test_a_pass_on_the_student_tree_is_a_violation(self):
        out = f"[ RUN      ] {COLUMN.test}\n[       OK ] {COLUMN.test} (0 ms)\n"
        problems = judge_failure(split_by_test(out)[COLUMN.test], COLUMN, "0", "32")
        self.assertIn("did not fail", problems[0])


if __name__ == "__main__":
    unittest.main()
