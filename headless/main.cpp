// SPDX-License-Identifier: MIT
// bwlab: the command line. Builds the CLI11 app from each subcommand's add_X_command (declared in
// commands.hpp, defined in X_command.cpp beside the command itself), parses and dispatches.
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.hpp"
#include "core/kernels/kernels.hpp"
#include "core/sweep/parse.hpp"
#include "core/report/terminal.hpp"
#include "core/sweep/suggest.hpp"
#include "core/version.hpp"
#include "headless/help_format.hpp"
#include "headless/commands.hpp"
#include "headless/import_command.hpp"
#include "headless/unit_word.hpp"

namespace {

// "bwlab: error:", red on a terminal that takes colour (NO_COLOR unset).
std::string error_prefix() {
  return bwlab::paint(bwlab::detect_terminal_style(STDERR_FILENO), bwlab::Tint::error, "bwlab: error:");
}

// "--kernels: empty value ..." for the first option of the chosen command given an empty value
// (`--kernels ""`, an unset shell variable), which would otherwise fall back to its default: a long
// default sweep or a silently unwritten file. "" when there is none.
std::string empty_value_message(const CLI::App& app) {
  for (const CLI::App* sub : app.get_subcommands()) {
    for (const CLI::Option* opt : sub->get_options()) {
      if (opt->count() == 0 || opt->get_type_size_min() == 0) continue;  // not given, or a flag
      for (const std::string& value : opt->results())
        if (value.empty())
          return opt->get_name(false, true) + (opt->get_required()
                                                    ? ": empty value; this option is required: give it one"
                                                    : ": empty value; leave the option out to get its default");
    }
    if (std::string nested = empty_value_message(*sub); !nested.empty()) return nested;
  }
  return "";
}

std::string join_args(int argc, char** argv) {
  std::string s;
  for (int i = 0; i < argc; ++i) {
    if (i) s += ' ';
    s += argv[i];
  }
  return s;
}

// The commands chosen on the command line, nested: bwlab, machine, show.
std::vector<CLI::App*> chosen_commands(CLI::App& app) {
  std::vector<CLI::App*> scopes{&app};
  for (std::size_t i = 0; i < scopes.size(); ++i)
    for (CLI::App* sub : scopes[i]->get_subcommands()) scopes.push_back(sub);
  return scopes;
}

// "bwlab machine spec": the commands given, as the help hint names them.
std::string command_path(CLI::App& app) {
  const auto scopes = chosen_commands(app);
  std::string command = "bwlab";
  for (std::size_t i = 1; i < scopes.size(); ++i) command += " " + scopes[i]->get_name();
  return command;
}

// The names of the commands one can give after `scope` (bwlab: run, list, ...; bwlab machine:
// spec, uarchs, show), and the same as one list ("spec, uarchs, show").
std::vector<std::string> command_names(const CLI::App& scope) {
  std::vector<std::string> out;
  for (const CLI::App* sub : scope.get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); }))
    out.push_back(sub->get_name());
  return out;
}
std::string name_list(const std::vector<std::string>& names) {
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
  return list;
}

// The commands (and nested commands, "machine spec") that have an option `name`, as "bwlab run,
// bwlab calibrate"; "" when none.
std::string commands_with_option(const CLI::App& app, const std::string& name, std::string path = "bwlab") {
  while (!path.empty() && path.back() == ' ') path.pop_back();
  std::string out;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    const std::string here = path + " " + sub->get_name();
    for (const CLI::Option* opt : sub->get_options())
      if (opt->check_name(name)) {
        out += (out.empty() ? "" : ", ") + here;
        break;
      }
    if (const std::string nested = commands_with_option(*sub, name, here); !nested.empty())
      out += (out.empty() ? "" : ", ") + nested;
  }
  return out;
}

// "unknown option --kernel; did you mean --kernels?" for the first option CLI11 could not place,
// with the candidates taken from the options of the command it was given to; "" when no word
// left over looks like an option.
std::string unknown_option_message(CLI::App& app) {
  const std::vector<CLI::App*> scopes = chosen_commands(app);
  for (auto scope = scopes.rbegin(); scope != scopes.rend(); ++scope)
    for (const std::string& arg : (*scope)->remaining()) {
      if (arg.size() < 2 || arg[0] != '-') continue;
      const std::string name = arg.substr(0, arg.find('='));
      std::vector<std::string> names;
      for (const CLI::Option* opt : (*scope)->get_options()) {
        for (const std::string& l : opt->get_lnames()) names.push_back("--" + l);
        for (const std::string& s : opt->get_snames()) names.push_back("-" + s);
      }
      std::string near = bwlab::nearest_name(name, names);
      if (near.empty()) {  // a shortened name: --turbo for --turbo-ghz, when only one option starts so
        std::vector<std::string> longer;
        for (const std::string& n : names)
          if (name.size() > 2 && n.rfind(name, 0) == 0) longer.push_back(n);
        if (longer.size() == 1) near = longer.front();
      }
      if (!near.empty()) return "unknown option " + name + "; did you mean " + near + "?";
      // An option of other commands ("simulate --reps": a prediction has no repetitions): say whose.
      const std::string owners = commands_with_option(app, name);
      if (!owners.empty())
        return "unknown option " + name + (*scope == &app ? " before a command" : " for " + (*scope)->get_name()) +
               ": it is an option of " + owners + (*scope == &app ? " (options go after the command)" : "");
      return "unknown option " + name;
    }
  return {};
}

// A word left over that belongs to an option: CLI11 says "The following argument was not
// expected: MB". A unit on its own ("--sizes 16 MB"), kernels without --kernels ("bwlab run
// stosb"), a size without --sizes are named as such; "" when no word left over is one of those.
// positionals_only: after a parse without error, the words a positional took that are no file
// ("-s 1 GiB": verdict's FILE took "GiB"; "--width 1200 px": plot's FILES took "px"), named only
// where an option given before them owns them (its number, its unit).
// The option whose value the words `stray` followed on the command line, where they stand
// together last ("--entries 1 .. 512": "--entries" for {"..", "512"}; "--entries=1 ..": "--entries";
// "--threads 2 --sizes 16M 2": "--sizes" for {"2"}), "" when they followed no option's value.
std::string option_before(const std::vector<std::string>& argv, const std::vector<std::string>& stray) {
  if (stray.empty() || argv.size() < stray.size() + 2) return {};
  for (std::size_t i = argv.size() - stray.size(); i >= 2; --i) {
    if (!std::equal(stray.begin(), stray.end(), argv.begin() + static_cast<std::ptrdiff_t>(i))) continue;
    const std::string& value = argv[i - 1];
    if (value.rfind("--", 0) == 0 && value.find('=') != std::string::npos) return value.substr(0, value.find('='));
    return argv[i - 2].rfind("-", 0) == 0 ? argv[i - 2] : std::string();
  }
  return {};
}

// `words` split into the runs that stand next to each other on the command line, in order:
// "--sizes 16M, 64M --threads 1 2" left {"64M"} and {"2"}.
std::vector<std::vector<std::string>> adjacent_runs(const std::vector<std::string>& argv,
                                                    const std::vector<std::string>& words) {
  std::vector<std::vector<std::string>> runs;
  std::size_t last = 0;  // where the previous word stood in argv (0: none yet)
  for (const std::string& w : words) {
    std::size_t at = last + 1;
    while (at < argv.size() && argv[at] != w) ++at;
    if (at >= argv.size()) return {};  // not found in order: no runs to tell apart
    if (runs.empty() || at != last + 1) runs.emplace_back();
    runs.back().push_back(w);
    last = at;
  }
  return runs;
}

std::string stray_word_message(CLI::App& app, const std::vector<std::string>& argv, bool positionals_only = false) {
  for (CLI::App* scope : chosen_commands(app)) {
    // "--sizes 16 MiB..1 GiB", "--sizes 16M 1G": the whole list, joined back, as one word (the
    // unit alone gave "(16GiB)", another size). A positional the shell's split fed (verdict's FILE
    // took "MiB..1") counts as one of the words.
    std::vector<std::string> positional;
    std::error_code ec;  // a path that cannot be looked at is no file here either
    for (const CLI::Option* o : scope->get_options())
      if (o->get_positional())
        for (const std::string& v : o->results())
          if (!v.empty() && !std::filesystem::exists(v, ec)) positional.push_back(v);
    std::vector<std::string> words = positional;
    if (!positionals_only)
      for (const std::string& w : scope->remaining()) words.push_back(w);
    // `group`'s list joined back, as the option `only` names ("" for each option in turn).
    const auto list_message = [&](const std::vector<std::string>& group, const std::string& only) -> std::string {
      for (const char* option : {"--sizes", "--llc"}) {
        if (!only.empty() && only != option) continue;
        try {
          const CLI::Option* o = scope->get_option(option);
          if (o->results().empty()) continue;
          if (std::string m = bwlab::cli::spaced_size_message(option, o->results().back(), group); !m.empty())
            return m;
        } catch (const CLI::OptionNotFound&) {
        }
      }
      // "--threads 1 .. 8", "--kernels stosb movnti", "--mix stosb:1, movnti:1": the list of the
      // option the words followed ("--entries 1 .. 512 --threads 1" is --entries' list; "kernels are
      // named with --kernels" was said to one who had used it).
      if (positionals_only || group.empty()) return {};
      for (const std::string option : {"--threads", "--entries", "--kernels", "--mix"}) {
        if (option_before(argv, group) != option) continue;
        try {
          const CLI::Option* o = scope->get_option(option);
          if (o->results().empty()) continue;
          const std::string& value = o->results().back();
          if (std::string m = option == "--kernels" || option == "--mix"
                                  ? bwlab::cli::spaced_name_list_message(option, value, group)
                                  : bwlab::cli::spaced_count_list_message(option, value, group);
              !m.empty())
            return m;
        } catch (const CLI::OptionNotFound&) {
        }
      }
      return {};
    };
    if (std::string m = list_message(words, ""); !m.empty()) return m;
    // Two split lists ("--sizes 16M, 64M --threads 1 2"): the words that stand together, each run
    // with the option it followed; the first was "sizes are given with --sizes" to one who had.
    if (!positionals_only)
      for (const std::vector<std::string>& group : adjacent_runs(argv, scope->remaining()))
        if (const std::string option = option_before(argv, group);
            group.size() < scope->remaining().size() && !option.empty())
          if (std::string m = list_message(group, option); !m.empty()) return m;
    for (const std::string& arg : positionals_only ? positional : scope->remaining()) {
      if (arg.empty()) continue;  // bwlab run "": CLI11's own message names nothing better
      std::string u;
      for (const char c : arg) u += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      // The number typed last before the unit, as `option` took it ("--sizes 2 GiB": 2, the last
      // of a list "1G,2"), "" when that option has no value ending in a digit.
      const auto number_before = [&](const char* option) {
        try {
          const CLI::Option* o = scope->get_option(option);
          return o->results().empty() ? std::string() : bwlab::cli::last_number_of(o->results().back());
        } catch (const CLI::OptionNotFound&) {
          return std::string();
        }
      };
      std::string number;  // a stock 16 when no --sizes or --llc value precedes it
      for (const char* option : {"--sizes", "--llc"})
        if (std::string n = number_before(option); !n.empty()) number = std::move(n);
      if (std::string unit = bwlab::cli::size_unit_word_message(arg, number); !unit.empty() &&
                                                                            !(positionals_only && number.empty()))
        return unit;
      // "--tolerance 5 %": the sign joins the number; "--base-ghz 2.3 GHz", "--mts 2666 MT/s",
      // "--width 1200 px": the option's name says its unit already.
      if (u == "%")
        for (const char* option : {"--tolerance", "--target-pstdev", "--max-spread", "--unstable-pct", "--model-band"})
          if (const std::string n = number_before(option); !n.empty())
            return "'%' was not expected: a percentage and its % are one word, without a space (" +
                   std::string(option) + " " + n + "%)";
      for (const auto& [unit, option] : std::initializer_list<std::pair<const char*, const char*>>{
               {"GHZ", "--base-ghz"}, {"GHZ", "--turbo-ghz"}, {"MT/S", "--mts"}, {"MTS", "--mts"},
               {"PX", "--width"}, {"PX", "--height"}})
        if (const std::string n = number_before(option); u == unit && !n.empty())
          return "'" + arg + "' was not expected: " + option + " takes the number alone, in the unit its name says (" +
                 option + " " + n + ")";
      // "--duration 200 ms": CLI11's "The following argument was not expected: ms".
      for (const char* unit : {"US", "MS", "S", "MIN", "H"})
        if (const std::string n = number_before("--duration"); u == unit && !n.empty())
          return "'" + arg + "' was not expected: a duration and its unit are one word, without a space (" + n + arg +
                 ")";
      if (positionals_only) continue;  // a word no option given owns: the positional's own reader judges it
      const auto has = [&](const char* option) {
        try {
          return scope->get_option(option) != nullptr;
        } catch (const CLI::OptionNotFound&) {
          return false;
        }
      };
      const std::string command = "bwlab " + scope->get_name();
      std::vector<std::string> words;
      for (std::size_t at = 0; at <= arg.size();) {
        const std::size_t comma = std::min(arg.find(',', at), arg.size());
        words.push_back(arg.substr(at, comma - at));
        at = comma + 1;
      }
      if (has("--kernels") && std::all_of(words.begin(), words.end(), [](const std::string& w) {
            return w == "all" || bwlab::find_kernel(w) != nullptr;
          }))
        return "'" + arg + "' was not expected: kernels are named with --kernels (" + command + " --kernels " + arg + ")";
      if (has("--sizes") && std::isdigit(static_cast<unsigned char>(arg.front())) != 0) {
        try {
          (void)bwlab::parse_sizes(arg);
          return "'" + arg + "' was not expected: sizes are given with --sizes (" + command + " --sizes " + arg + ")";
        } catch (const bwlab::InputError&) {
        }
      }
      // A word beyond the command's positionals, all given ("bwlab report a.json b.json", "bwlab
      // compare a b c": CLI11's "The following argument was not expected: b.json").
      std::vector<std::string> names, given;
      bool all_given = !positionals_only;
      for (const CLI::Option* o : scope->get_options())
        if (o->get_positional()) {
          names.push_back(o->get_name());
          all_given = all_given && o->get_items_expected_max() == 1 && o->count() == 1;
          if (o->count() == 1) given.push_back("'" + o->results().front() + "'");
        }
      if (all_given && names == std::vector<std::string>{"FILE"})
        return fmt::format("'{}' was not expected: {} reads one FILE ({} came first); give each file its own command",
                           arg, command, given.front());
      if (all_given && !names.empty())
        return fmt::format("'{}' was not expected: {} takes {} ({})", arg, command, fmt::join(names, " and "),
                           fmt::join(given, ", "));
    }
  }
  return {};
}

// A command that needs a command of its own (bwlab, bwlab machine) and did not get one: CLI11
// says "A subcommand is required"; name the word it got instead, the nearest command, and the
// commands there are: "unknown machine command 'showw'; did you mean show? machine commands are
// spec, uarchs, show". "" when every command given has the command it needs.
std::string missing_command_message(CLI::App& app) {
  CLI::App* scope = &app;
  std::string path;  // "machine " for bwlab machine
  for (;;) {
    const auto chosen = scope->get_subcommands();
    if (chosen.empty()) break;
    scope = chosen.front();
    path += scope->get_name() + " ";
  }
  const std::vector<std::string> names = command_names(*scope);
  if (names.empty()) return {};
  const std::string list = name_list(names);
  // An option before the command ("bwlab --kernels stosb") read as the command 'stosb'.
  if (const auto rest = scope->remaining(); !rest.empty() && rest.front().size() > 1 && rest.front()[0] == '-') {
    const std::string name = rest.front().substr(0, rest.front().find('='));
    if (const std::string owners = commands_with_option(*scope, name, "bwlab " + path); !owners.empty())
      return name + " before a command: it is an option of " + owners + "; options go after the command, e.g. " +
             owners.substr(0, owners.find(',')) + " " + name + " ...";
  }
  std::string word;
  for (const std::string& arg : scope->remaining())
    if (!arg.empty() && arg[0] != '-') {
      word = arg;
      break;
    }
  if (word.empty()) return (path.empty() ? std::string("give a command") : path + "needs a command") + ": " + list;
  const std::string near = bwlab::nearest_name(word, names);
  return "unknown " + path + "command '" + word + "'" + (near.empty() ? std::string(";") : "; did you mean " + near + "?") +
         " " + path + "commands are " + list;
}

// The option named `name` ("--sockets") as given to the chosen commands; nullptr if none.
const CLI::Option* given_option(const CLI::App& app, const std::string& name) {
  for (const CLI::App* sub : app.get_subcommands()) {
    for (const CLI::Option* opt : sub->get_options())
      if (opt->count() > 0 && opt->get_name() == name) return opt;
    if (const CLI::Option* nested = given_option(*sub, name)) return nested;
  }
  return nullptr;
}

// What an option given without its value is told, wherever CLI11 noticed it.
std::string no_value_message(const std::string& option) { return option + ": no value given; it takes one"; }

// An option left without its value before another option: CLI11 took the next option as the value
// (`run --reps --sizes 1M`: reps = "--sizes"), then called the next word a stray ("'1M' was not
// expected: sizes are given with --sizes", where --sizes was given). "" when no option took one.
std::string option_taken_as_value(CLI::App& app) {
  for (CLI::App* scope : chosen_commands(app))
    for (const CLI::Option* opt : scope->get_options())
      for (const std::string& value : opt->results()) {
        if (!value.starts_with("--")) continue;
        const std::string name = value.substr(0, value.find('='));
        try {
          if (scope->get_option(name) == nullptr) continue;
        } catch (const CLI::OptionNotFound&) {
          continue;
        }
        return no_value_message(opt->get_name()) + " (" + name + " after it is an option, not its value)";
      }
  return {};
}

// CLI11's words for a value that is not a number ("Could not convert: --sockets = two") and for
// an option given twice ("--smt: At Most 1 required but received 2") or without its value ("--reps:
// 1 required TEXT missing") in the user's terms: "--sockets: 'two' is not a whole number", "--smt:
// given 2 times; give it once", "--reps: no value given ...". "" for others.
std::string value_error_message(const CLI::App& app, const CLI::ParseError& e) {
  const std::string what = e.what();
  if (dynamic_cast<const CLI::ConversionError*>(&e) != nullptr) {
    const std::string prefix = "Could not convert: ";
    const auto eq = what.find(" = ");
    if (what.rfind(prefix, 0) != 0 || eq == std::string::npos) return {};
    const std::string name = what.substr(prefix.size(), eq - prefix.size());
    const CLI::Option* opt = given_option(app, name);
    if (opt == nullptr) return {};
    const std::string type = opt->get_type_name();
    const std::string kind = type == "INT"    ? "a whole number"
                             : type == "UINT" ? "a whole number (0 or more)"
                                              : "a number";
    return name + ": '" + what.substr(eq + 3) + "' is not " + kind;
  }
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) != nullptr) {
    const std::string mark = ": At Most 1 required but received ";
    if (const auto at = what.find(mark); at != std::string::npos)
      return what.substr(0, at) + ": given " + what.substr(at + mark.size()) + " times; give it once";
    // "--reps: 1 required TEXT missing" (the option last on the line, its value left out).
    const auto colon = what.find(": ");
    if (colon != std::string::npos && what.ends_with(" missing") && what.find(" required ", colon) != std::string::npos)
      return no_value_message(what.substr(0, colon));
  }
  return {};
}

// What a command printed must reach its reader: a run's table to a full disk (> /dev/full) was lost
// and the exit code was still 0. Flushed here; a failure is said and the exit code is 1 (as
// coreutils do): also for compare's 3 and 4 (a CI job read "regression" where the report was lost).
// Bad input (2) and an interrupt (128 + signal) keep theirs.
int stdout_checked(int rc) {
  std::cout.flush();
  errno = 0;
  const bool flushed = std::fflush(stdout) == 0;
  const int why = errno;
  if (flushed && !std::ferror(stdout) && std::cout.good()) return rc;
  // The reason of a write that failed before this flush is no longer known (errno is long gone).
  std::fprintf(stderr, "bwlab: failed: cannot write standard output%s%s: what the command printed there is lost\n",
               why != 0 ? ": " : " (a full disk, a closed pipe?)", why != 0 ? std::strerror(why) : "");
  return rc == 2 || rc >= 128 ? rc : 1;
}

int run_main(int argc, char** argv) {
  CLI::App app{"bwlab: how do rep stosb and non-temporal clearing scale when cores compete for memory bandwidth?"};
  app.name("bwlab");
  app.set_version_flag("--version", std::string("bwlab ") + bwlab::kVersion);
  app.require_subcommand(1);
  app.footer("Run 'bwlab COMMAND --help' for the options of a command.");
  // Descriptions wrapped in their column on a terminal (before the commands: they take it).
  app.formatter(std::make_shared<bwlab::cli::HelpFormatter>(bwlab::detect_terminal_style(STDOUT_FILENO).width));

  const std::string command_line = join_args(argc, argv);
  using namespace bwlab::cli;
  const Command commands[] = {
      add_run_command(app, command_line),      add_list_command(app),   add_topo_command(app),
      add_simulate_command(app, command_line), add_machine_command(app), add_calibrate_command(app, command_line),
      add_verdict_command(app),                add_compare_command(app), add_merge_command(app),
      add_report_command(app),                 add_plot_command(app),
      add_import_command(app, command_line),   add_export_command(app),
      add_completion_command(app),
  };

  // "bwlab help [COMMAND...]" is "bwlab [COMMAND...] --help", as git and cargo take it; a word that
  // is no command there is refused (CLI11 would print the top help for it and exit 0).
  std::vector<char*> args(argv, argv + argc);
  static char help_flag[] = "--help";
  const bool help_command = argc >= 2 && std::string_view(argv[1]) == "help";
  // "bwlab heatmap --help" printed the top help and exited 0, the mistyped command unsaid (without
  // --help it is refused): the words before the first option are checked as commands here too.
  const bool help_option = std::any_of(args.begin() + 1, args.end(), [](const char* a) {
    return std::string_view(a) == "--help" || std::string_view(a) == "-h";
  });
  if (help_command || help_option) {
    if (help_command) args.erase(args.begin() + 1);
    const CLI::App* scope = &app;
    std::string path = "bwlab";
    for (std::size_t i = 1; i < args.size() && args[i][0] != '-'; ++i) {  // options are left to CLI11
      const std::vector<std::string> names = command_names(*scope);
      if (names.empty() && !help_command) break;  // "verdict FILE --help": the command's own words
      if (names.empty()) {  // "bwlab help run simulate": it said "its commands are " and nothing
        std::fprintf(stderr, "%s %s has no commands ('%s' is none); see bwlab help %s\n", error_prefix().c_str(),
                     path.c_str(), args[i], path.substr(6).c_str());
        return 2;
      }
      if (std::find(names.begin(), names.end(), args[i]) == names.end()) {
        const std::string near = bwlab::nearest_name(args[i], names);
        std::fprintf(stderr, "%s %s has no command '%s'%s its commands are %s\n", error_prefix().c_str(), path.c_str(),
                     args[i], near.empty() ? ";" : ("; did you mean " + near + "?").c_str(), name_list(names).c_str());
        return 2;
      }
      scope = scope->get_subcommand(args[i]);
      path += " " + scope->get_name();
    }
    if (help_command) args.push_back(help_flag);
  }

  try {
    app.parse(static_cast<int>(args.size()), args.data());
  } catch (const CLI::CallForHelp& e) {
    // "run --nosuchopt --help" printed run's help and exited 0, the typo unsaid: refused as it is
    // without --help (a mistyped command is caught before parsing).
    if (const std::string unknown = unknown_option_message(app); !unknown.empty()) {
      std::fprintf(stderr, "%s %s\nRun '%s --help'.\n", error_prefix().c_str(), unknown.c_str(),
                   command_path(app).c_str());
      return 2;
    }
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string what = e.what();
    // CLI11 reports a mistyped command as "A subcommand is required"; name the word instead.
    if (std::string taken = option_taken_as_value(app); !taken.empty()) {
      what = std::move(taken);
    } else if (dynamic_cast<const CLI::RequiredError*>(&e) != nullptr && what == "A subcommand is required") {
      if (std::string named = missing_command_message(app); !named.empty()) what = std::move(named);
    } else if (dynamic_cast<const CLI::RequiredError*>(&e) != nullptr ||
               dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) {
      // A mistyped option is the cause of "--sockets is required" when --socket was given.
      if (const std::string unknown = unknown_option_message(app); !unknown.empty()) what = unknown;
      else if (const std::string stray = stray_word_message(app, {argv, argv + argc}); !stray.empty()) what = stray;
    } else if (std::string readable = value_error_message(app, e); !readable.empty()) {
      what = std::move(readable);
    }
    // The help of the command given ("bwlab machine spec --help"), not a generic pointer.
    const std::string command = command_path(app);
    const std::string hint = command != "bwlab" ? "Run '" + command + " --help'."
                                               : std::string("Run 'bwlab --help' or 'bwlab COMMAND --help'.");
    std::fprintf(stderr, "%s %s\n%s\n", error_prefix().c_str(), what.c_str(), hint.c_str());
    return 2;
  }

  // `run --kernels --sizes`: parsed, kernels = "--sizes" (read as "unknown kernel '--sizes'").
  if (const std::string taken = option_taken_as_value(app); !taken.empty()) {
    std::fprintf(stderr, "%s %s\n", error_prefix().c_str(), taken.c_str());
    return 2;
  }
  // `verdict --machine M -s 1 GiB`, `plot f.csv --width 1200 px`: parsed, the unit taken as a file.
  if (const std::string unit = stray_word_message(app, {argv, argv + argc}, true); !unit.empty()) {
    std::fprintf(stderr, "%s %s\n", error_prefix().c_str(), unit.c_str());
    return 2;
  }
  if (const std::string empty = empty_value_message(app); !empty.empty()) {
    std::fprintf(stderr, "%s %s\n", error_prefix().c_str(), empty.c_str());
    return 2;
  }
  try {
    for (const Command& c : commands)
      if (*c.sub) return c.run();
  } catch (const bwlab::InputError& e) {
    std::fprintf(stderr, "%s %s\n", error_prefix().c_str(), e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bwlab: failed: %s\n", e.what());
    return 1;
  }
  return 2;
}

}  // namespace

int main(int argc, char** argv) { return stdout_checked(run_main(argc, argv)); }
