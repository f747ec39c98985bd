# The command line itself: help for every path, "did you mean" for commands and flags, the man page
# through groff/mandoc, the bash completion run in bash, and every --help example parsed.
set(_cli ${CMAKE_CURRENT_LIST_DIR})
ncdx_golden(cli bare 64 GOLDEN_DIR ${_cli}/golden ARGS "")
ncdx_golden(cli help_env_lint 0 GOLDEN_DIR ${_cli}/golden ARGS help env lint)
ncdx_golden(cli env_without_subcommand 64 GOLDEN_DIR ${_cli}/golden ARGS env)
ncdx_golden(cli unknown_subcommand 64 STDERR_MATCH "unknown command 'lnt' for `ncdx env`; did you mean 'lint'" ARGS env lnt)
ncdx_golden(cli unknown_command 64 STDERR_MATCH "unknown command 'triag'.*did you mean 'triage'" ARGS triag logs/)
ncdx_golden(cli unknown_flag 64 STDERR_MATCH "unknown flag '--pik' for `ncdx topo`; did you mean '--pick'" ARGS topo --pik 4)
ncdx_golden(cli help_unknown 64 STDERR_MATCH "no command 'env lnt'; did you mean 'lint'" ARGS help env lnt)
ncdx_golden(cli value_like_command 66 ARGS audit --config lint)  # a flag's value is not a command word
add_test(NAME cli.man_page COMMAND python3 ${_cli}/man_check.py $<TARGET_FILE:ncdx>)
add_test(NAME cli.bash_completion COMMAND bash ${_cli}/completion_check.sh $<TARGET_FILE:ncdx>)
add_test(NAME cli.examples_parse COMMAND python3 ${_cli}/examples_check.py $<TARGET_FILE:ncdx>)
set_tests_properties(cli.man_page cli.bash_completion cli.examples_parse PROPERTIES LABELS "cli" SKIP_RETURN_CODE 77)
# Terminal output fits $COLUMNS (#13 §3): doctor, triage, audit, env lint, compat and topo at 80,
# 120 and 200 columns, no line wider than the terminal but the ones meant to be pasted.
add_test(NAME cli.terminal_width COMMAND python3 ${_cli}/width_check.py $<TARGET_FILE:ncdx> ${CMAKE_SOURCE_DIR}
                                         $<TARGET_FILE:ncdx_fake_nvml>)
set_tests_properties(cli.terminal_width PROPERTIES LABELS "cli")
# --output DIR is honoured or refused, never ignored (#13): compat writes no report directory.
ncdx_golden(cli output_refused 64 STDERR_MATCH "`ncdx compat` writes no report directory; use --json > FILE" ARGS compat --output ${CMAKE_CURRENT_BINARY_DIR}/never-written)
ncdx_golden(cli version 0 STDERR_MATCH "^$" ARGS --version)  # a flag the bare-command help must not swallow
