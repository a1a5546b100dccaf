// SPDX-License-Identifier: MIT
// `bwlab machine spec|uarchs|show`: machine files from a spec sheet, the write-path table, and
// every parameter of a machine with where it comes from (core/model/uarch.hpp, machine.hpp).
#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.hpp"
#include "core/report/units.hpp"
#include "core/model/machine.hpp"
#include "core/model/simulate.hpp"
#include "core/model/uarch.hpp"
#include "core/report/atomic_file.hpp"
#include "core/report/input_file.hpp"
#include "core/sweep/parse.hpp"
#include "headless/commands.hpp"

namespace bwlab::cli {
namespace {

struct MachineArgs {
  model::SpecSheet spec;
  std::string llc;
  std::string out;
  std::string what;  // show: preset or file
};

int spec_command(const MachineArgs& a, const CLI::Option& base_ghz, const CLI::Option& turbo_ghz) {
  // The sheet's 0 means "no clock given": a clock typed as 0 (or below) is a mistake, not that.
  for (const CLI::Option* clock : {&base_ghz, &turbo_ghz})
    if (clock->count() > 0 && !(clock->as<double>() > 0))
      throw InputError(fmt::format("{} must be 0.5..7 GHz, got {}; leave it out to use the microarchitecture's "
                                   "typical clock",
                                   clock->get_name(), clock->as<std::string>()));
  check_output_format({"--out", a.out}, FileFormat::json, "a machine file");
  check_machine_output(a.out, "--out");
  model::SpecSheet s = a.spec;
  s.llc_bytes = parse_cache_size(a.llc, "--llc");
  const MachineParams m = model::machine_from_spec(s);  // validates before writing
  save_machine_file(a.out, m);
  fmt::print("wrote {}: {} ({}), topology '{}', DRAM peak {:.1f} GB/s per socket, core clock {:.2f} GHz; "
             "uncertainty band x/{:.2f}\n",
             a.out, m.name, m.description, m.topology, m.dram_peak_gbps_per_node, m.core_ghz, 1 + m.band);
  // The base clock alone is the low end: published runs run with turbo, which the sheet also gives.
  if (base_ghz.count() > 0 && turbo_ghz.count() == 0)
    fmt::print(stderr,
               "note: only --base-ghz given: the model runs the cores at the base clock, {:.2f} GHz (without a clock: the "
               "family's typical turbo); runs with turbo on are faster: give --turbo-ghz from the sheet\n",
               m.core_ghz);
  return 0;
}

int uarchs_command() {
  fmt::print("{:<16} {:<50} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>8} {:>6} {:>7} {:>7} {:>5} {:>6}\n", "uarch",
             "aliases", "ref", "turbo", "lines", "lines", "stos", "stos", "stos", "SpecI2M", "own", "SMT", "SMT", "zero",
             "LLC");
  fmt::print("{:<16} {:<50} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>8} {:>6} {:>7} {:>7} {:>5} {:>6}\n", "", "",
             "GHz", "GHz", "WA", "NT", "from", "evade", "non0", "max", "1S ns", "gainWA", "gainNT", "elim", "domain");
  for (const auto& u : model::uarch_table())
    fmt::print("{:<16} {:<50} {:>6.2f} {:>6.2f} {:>6.1f} {:>6.1f} {:>6} {:>6.2f} {:>6.2f} {:>8.2f} {:>6} {:>+7.2f} "
               "{:>+7.2f} {:>5} {:>6}\n",
               u.name, fmt::format("{}", fmt::join(u.aliases, ", ")), u.ref_ghz, u.typical_turbo_ghz, u.mlp_wa_lines,
               u.mlp_nt_lines,
               u.stos_no_rfo_min_bytes > 0 ? size_label(u.stos_no_rfo_min_bytes) : std::string("never"), u.stos_evasion, u.stos_evasion_nonzero, u.speci2m_max_fraction,
               u.own_latency_ns > 0 ? fmt::format("{:.1f}", u.own_latency_ns) : std::string("mem"), u.smt_gain,
               u.smt_gain_nt, u.zero_store_elimination ? "yes" : "no",
               u.llc_domain_cores > 0 ? fmt::format("{:g}c", u.llc_domain_cores) : std::string("pkg"));
  fmt::print("lines WA, NT: cache lines in flight per core at the ref clock, write-allocate and non-temporal stores "
             "(one thread's rate is lines x 64 B / latency: the figures that decide the 1-thread call).\n");
  fmt::print("stos from: the smallest rep stos that writes lines without reading them (never: it always reads).\n");
  fmt::print("stos non0: share of the evasion a non-zero fill keeps (0: only zero fills write without reading).\n");
  fmt::print("own 1S: idle latency of an evaded line's ownership on one socket (mem: waits a memory latency).\n");
  fmt::print("LLC domain: cores sharing one L3 slice (AMD CCX/CCD: a thread caches in its own); pkg: one LLC per "
             "package.\n");
  fmt::print("Sources of every value: docs/model.md (installed: share/doc/bwlab/model.md), \"Write path per "
             "microarchitecture\".\n");
  return 0;
}

int show_command(const MachineArgs& a) {
  check_input_file(a.what);
  const MachinePtr m = load_machine(a.what);
  fmt::print("machine {}: {}\n", m->name, m->description);
  if (!m->cpu.empty()) fmt::print("cpu: {}\n", m->cpu);
  fmt::print("uarch: {}\ntopology: {}\nfeatures: {}\nprovenance: {}\n", m->uarch.empty() ? "- (no row of the write-path table: the model's defaults, see the origins)" : m->uarch,
             machine_topology(*m), fmt::join(m->features, " "), m->provenance);
  fmt::print("{:<26} {:>14}  {:<12} {}\n", "parameter", "value", "unit", "origin");
  for (const auto& l : describe_params(*m))
    fmt::print("{:<26} {:>14}  {:<12} {}\n", l.name, l.value, l.unit, l.origin);
  fmt::print("units: lines/core = cache lines in flight per core at ref_ghz; fraction = 0..1; share (+-) = a change as a fraction of one thread's, negative for a loss; band: a prediction's "
             "low..high is x / (1 + band) .. x (1 + band); GB = 1e9 bytes. Meanings and sources: docs/model.md "
             "(installed: share/doc/bwlab/model.md), \"Parameters\".\n");
  return 0;
}

}  // namespace

Command add_machine_command(CLI::App& app) {
  auto args = std::make_shared<MachineArgs>();
  CLI::App* cmd = app.add_subcommand("machine", "machine files for simulate: from a spec sheet, and what is in them");
  cmd->require_subcommand(1);
  cmd->footer("Run 'bwlab machine COMMAND --help' for the options of a command, e.g. bwlab machine spec --help.");
  CLI::App* spec = cmd->add_subcommand("spec", "write a machine file from a spec sheet (no measuring)");
  spec->add_option("--uarch", args->spec.uarch, "microarchitecture (see 'bwlab machine uarchs')")->required();
  spec->add_option("--sockets", args->spec.sockets, "packages")->required();
  spec->add_option("--cores", args->spec.cores, "cores per socket")->required();
  spec->add_option("--smt", args->spec.smt,
                   "hardware threads per core: 1 or 2 (every microarchitecture of the table has SMT 2 at most)")
      ->required();
  spec->add_option("--channels", args->spec.channels, "DRAM channels per socket")->required();
  spec->add_option("--mts", args->spec.mts, "DRAM transfer rate in MT/s, e.g. 2666")->required();
  spec->add_option("--llc", args->llc, "LLC per socket, 64K to 4G, e.g. 24.75M (K, M, G: binary; KB, KiB alike; Mb is megabits, refused)")->required();
  const CLI::Option* base_ghz = spec->add_option("--base-ghz", args->spec.base_ghz, "base core clock, 0.5..7 GHz");
  const CLI::Option* turbo_ghz =
      spec->add_option("--turbo-ghz", args->spec.turbo_ghz, "turbo core clock, 0.5..7 GHz (used when given)");
  spec->add_option("-o,--out", args->out, "the machine JSON file to write")->required();
  spec->footer("\nExample:\n  bwlab machine spec --uarch cascadelake-sp --sockets 1 --cores 18 --smt 2 --channels 6 "
               "--mts 2666 --llc 24.75M --out m.json\n  bwlab simulate --machine m.json --placement none\n");
  CLI::App* uarchs = cmd->add_subcommand("uarchs", "list the microarchitectures of the write-path table");
  CLI::App* show = cmd->add_subcommand("show", "print every parameter of a machine with its origin");
  show->add_option("MACHINE", args->what, "a preset or a machine file")->required();
  return {cmd, [args, spec, uarchs, show, base_ghz, turbo_ghz]() {
            if (*spec) return spec_command(*args, *base_ghz, *turbo_ghz);
            if (*uarchs) return uarchs_command();
            if (*show) return show_command(*args);
            return 2;
          }};
}

}  // namespace bwlab::cli
