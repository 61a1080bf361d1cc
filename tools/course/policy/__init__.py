"""What student code may hold, and what the student may see: the exercise-file policy
(exercise_policy, exercise_rules, read with the one C++ lexer of cxx_tokens), the answers-out-
of-view check (check_answers, answer_units, prediction_patterns) and the prediction messages
check (check_predictions). Their findings are one type (findings.Finding). Imports only model."""
