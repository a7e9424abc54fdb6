// Every subcommand's entry point. argv[0] is the subcommand's name.
#pragma once

namespace footprint {

int run_audit(int argc, char** argv);
int run_checks(int argc, char** argv);
int run_can_i(int argc, char** argv);
int run_who_can(int argc, char** argv);
int run_can_install(int argc, char** argv);
int run_fix(int argc, char** argv);
int run_admission(int argc, char** argv);
int run_compare(int argc, char** argv);
int run_diff(int argc, char** argv);
int run_images(int argc, char** argv);
int run_hf_cache(int argc, char** argv);
int run_airgap(int argc, char** argv);
int run_snapshot_command(int argc, char** argv);
int run_restarts(int argc, char** argv);
int run_validate(int argc, char** argv);

}  // namespace footprint
