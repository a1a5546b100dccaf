// SPDX-License-Identifier: MIT
// `bwlab completion bash` (hidden): prints a bash completion script generated from the CLI11 app
// itself (every visible command, nested command and option), so the script installed with the
// package cannot fall behind the options. Kernel names come from core's kernel table; scenario
// names, import/export formats, placements, membind words, page kinds, plot kinds, presets and
// microarchitectures from the tables the commands check their values against.
#include <algorithm>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include <CLI/CLI.hpp>

#include "core/errors.hpp"
#include "core/import/import.hpp"
#include "core/engine/buffer.hpp"
#include "core/kernels/kernels.hpp"
#include "core/model/simulate.hpp"
#include "core/model/uarch.hpp"
#include "core/scenario/scenario.hpp"
#include "core/topology/placement.hpp"
#include "gui/plots/render.hpp"
#include "headless/commands.hpp"

namespace bwlab::cli {

namespace {

std::vector<const CLI::App*> visible_subcommands(const CLI::App& app) {
  std::vector<const CLI::App*> subs;
  for (const CLI::App* s : app.get_subcommands([](const CLI::App* a) { return !a->get_group().empty(); }))
    subs.push_back(s);
  return subs;
}

std::string join(const std::vector<std::string>& words) {
  std::string s;
  for (const std::string& w : words) s += (s.empty() ? "" : " ") + w;
  return s;
}

// One command (the root has path ""): its nested commands, its options, and which options take a value.
void emit_command(const CLI::App& app, const std::string& path, std::string& walk, std::string& table) {
  std::vector<std::string> subs, opts, valued;
  bool positional = false;  // takes file names (or table values) without an option before them
  for (const CLI::App* s : visible_subcommands(app)) {
    subs.push_back(s->get_name());
    walk += fmt::format("      \"{}/{}\") cmd=\"{}\"; cmd_end=$i ;;\n", path, s->get_name(),
                        path.empty() ? s->get_name() : path + " " + s->get_name());
  }
  for (const CLI::Option* o : app.get_options()) {
    if (o->get_group().empty()) continue;  // hidden
    if (!o->nonpositional()) {
      positional = true;
      continue;
    }
    std::vector<std::string> names;
    for (const std::string& l : o->get_lnames()) names.push_back("--" + l);
    for (const std::string& s : o->get_snames()) names.push_back("-" + s);
    opts.insert(opts.end(), names.begin(), names.end());
    if (o->get_items_expected_max() != 0) valued.insert(valued.end(), names.begin(), names.end());
  }
  table += fmt::format("    \"{}\") subs=\"{}\"; opts=\"{}\"; valued=\" {} \"; files={} ;;\n", path, join(subs), join(opts),
                       join(valued), positional ? 1 : 0);
  for (const CLI::App* s : visible_subcommands(app))
    emit_command(*s, path.empty() ? s->get_name() : path + " " + s->get_name(), walk, table);
}

template <typename Range>
std::vector<std::string> names_of(const Range& range) {
  std::vector<std::string> names;
  for (const auto& v : range) {
    if constexpr (std::is_same_v<std::decay_t<decltype(v)>, Scenario>) names.emplace_back(to_string(v));
    else names.emplace_back(v);
  }
  return names;
}

// The values an option of `command` ("run", "machine spec") takes: a case of "$cmd $prev" listing
// every name of the option ("export --format"|"export -f"); with `files`, file names are offered
// too. The option must exist: a renamed one fails the build's tests, not silently the completion.
std::string option_values(const CLI::App& app, const std::string& command, const std::string& option,
                          const std::vector<std::string>& values, bool files = false) {
  const CLI::App* sub = &app;
  std::size_t from = 0;
  while (from <= command.size()) {
    const std::size_t space = std::min(command.find(' ', from), command.size());
    sub = sub->get_subcommand(command.substr(from, space - from));
    from = space + 1;
  }
  const CLI::Option* o = sub->get_option(option);
  std::vector<std::string> labels;
  for (const std::string& l : o->get_lnames()) labels.push_back(fmt::format("\"{} --{}\"", command, l));
  for (const std::string& sn : o->get_snames()) labels.push_back(fmt::format("\"{} -{}\"", command, sn));
  std::string pattern;
  for (const std::string& l : labels) pattern += (pattern.empty() ? "" : "|") + l;
  return fmt::format("      {}) COMPREPLY=($(compgen -W \"{}\" -- \"$cur\"){}); return ;;\n", pattern, join(values),
                     files ? " $(compgen -f -- \"$cur\")" : "");
}

template <typename... Lists>
std::vector<std::string> concat(const Lists&... lists) {
  std::vector<std::string> out;
  (out.insert(out.end(), lists.begin(), lists.end()), ...);
  return out;
}

}  // namespace

std::string bash_completion(const CLI::App& app) {
  std::string walk, table;
  emit_command(app, "", walk, table);
  // This hidden command's one value (it offered the command list after `bwlab completion`).
  walk += "      \"/completion\") cmd=\"completion\"; cmd_end=$i ;;\n";
  table += "    \"completion\") subs=\"bash\"; opts=\"--help -h\"; valued=\"  \"; files=0 ;;\n";
  std::vector<std::string> kernels{"all"};
  for (const KernelInfo& k : kernel_table()) kernels.emplace_back(k.name);
  std::vector<std::string> uarchs;
  for (const model::Uarch& u : model::uarch_table()) {
    uarchs.push_back(u.name);
    uarchs.insert(uarchs.end(), u.aliases.begin(), u.aliases.end());
  }
  const std::vector<std::string> membind = concat(membind_words(), std::vector<std::string>{"node:0"});
  const std::vector<std::string> fills{"zero", "perf", "0x01"};
  std::string values = option_values(app, "run", "--scenario", names_of(all_scenarios())) +
                       option_values(app, "simulate", "--scenario", {"scaling", "victim", "mix"}) +
                       option_values(app, "export", "--format", names_of(export_formats())) +
                       option_values(app, "plot", "--kind", gui::plot_kinds()) +
                       option_values(app, "plot", "--llc", {"auto", "none"}) +
                       option_values(app, "plot", "--rows", {"auto", "scaling", "victim", "mix", "pagefault"}) +
                       option_values(app, "plot", "--machine", concat(std::vector<std::string>{"auto", "none"},
                                                                      machine_presets()), true) +
                       option_values(app, "simulate", "--machine", machine_presets(), true) +
                       option_values(app, "verdict", "--machine", machine_presets(), true) +
                       option_values(app, "machine spec", "--uarch", uarchs);
  for (const char* command : {"run", "simulate"})
    values += option_values(app, command, "--placement", placement_words()) +
              option_values(app, command, "--membind", membind) + option_values(app, command, "--pages", page_names()) +
              option_values(app, command, "--fill", fills);
  // verdict --machine judges a prediction made with these two (it offered no values for them).
  values += option_values(app, "verdict", "--placement", placement_words()) +
            option_values(app, "verdict", "--membind", membind) +
            option_values(app, "topo", "--placement", placement_words()) +
            option_values(app, "verdict", "--against-model", machine_presets(), true) +
            option_values(app, "verdict", "--by", {"cpu"}) +
            option_values(app, "calibrate", "--base", concat(std::vector<std::string>{"local"}, machine_presets()), true) +
            option_values(app, "run", "--json-format", {"bwlab", "gbench"}) +
            option_values(app, "run", "--reps", {"auto", "3", "5", "11"});
  for (const char* command : {"run", "simulate", "topo"})
    values += option_values(app, command, "--topology", {"local"}, true);
  // Positional values, by "command#index" (the index counts the words after the command that are
  // neither options nor their values).
  // report reads a bwlab JSON only: its JSON files and directories (it offered every CSV).
  const std::string positionals =
      fmt::format("      \"import#0\") COMPREPLY=($(compgen -W \"{}\" -- \"$cur\")); return ;;\n"
                  "      \"report#0\") COMPREPLY=($(compgen -f -X '!*.[jJ][sS][oO][nN]' -- \"$cur\") $(compgen -d -- \"$cur\")); return ;;\n"
                  "      \"machine show#0\") COMPREPLY=($(compgen -W \"{}\" -- \"$cur\") $(compgen -f -- \"$cur\")); return ;;\n",
                  join(names_of(import::formats())), join(machine_presets()));
  return fmt::format(R"(# bash completion for bwlab: generated by `bwlab completion bash` from the command's own options.
_bwlab() {{
  local cur=${{COMP_WORDS[COMP_CWORD]}} prev=${{COMP_WORDS[COMP_CWORD-1]}}
  local cmd= cmd_end=0 i w subs= opts= valued= files=0 npos=0
  # --option=value: bash splits the word at '=' (COMP_WORDBREAKS): "--option" "=" "value".
  if [[ "$cur" == "=" ]]; then
    cur=
  elif [[ "$prev" == "=" ]] && ((COMP_CWORD >= 2)); then
    prev=${{COMP_WORDS[COMP_CWORD-2]}}
  fi
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=${{COMP_WORDS[i]}}
    case "$cmd/$w" in
{}    esac
  done
  case "$cmd" in
{}  esac
  if [[ "$valued" == *" $prev "* ]]; then
    case "$cmd $prev" in  # options whose values come from a table
{}    esac
    case "$prev" in
      --kernels|-k|--victim|--aggressor)  # a comma-separated list of kernel names
        local done_part=
        [[ "$cur" == *,* ]] && done_part=${{cur%,*}},
        COMPREPLY=($(compgen -P "$done_part" -W "{}" -- "${{cur##*,}}"))
        compopt -o nospace 2>/dev/null
        return ;;
      --mix)  # kernel:threads pairs, comma-separated: a kernel name with 1 thread to edit
        local done_part=
        [[ "$cur" == *,* ]] && done_part=${{cur%,*}},
        COMPREPLY=($(compgen -P "$done_part" -S ":1" -W "{}" -- "${{cur##*,}}"))
        compopt -o nospace 2>/dev/null
        return ;;
      --csv|--json|--out|-o|--machine|-m|--validate|--from) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    esac
    COMPREPLY=()  # a value: nothing to offer
    return
  fi
  if [[ "$cur" != -* ]]; then
    for ((i = cmd_end + 1; i < COMP_CWORD; i++)); do
      w=${{COMP_WORDS[i]}}
      if [[ "$w" == -* ]]; then
        if [[ "$valued" == *" $w "* ]]; then
          ((i++))
          [[ "${{COMP_WORDS[i]}}" == "=" ]] && ((i++))  # --option=value
        fi
        continue
      fi
      ((npos++))
    done
    case "$cmd#$npos" in  # positional arguments whose values come from a table
{}    esac
  fi
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  elif [[ -n "$subs" ]]; then
    COMPREPLY=($(compgen -W "$subs" -- "$cur"))
  elif [[ "$files" == 1 ]]; then
    COMPREPLY=($(compgen -f -- "$cur"))  # files (CSV, JSON) for the commands that read them
  else
    COMPREPLY=()  # a command without arguments of its own (list, machine uarchs): options only
  fi
}}
complete -o filenames -F _bwlab bwlab
)",
                     walk, table, values, join(kernels), join(kernels), positionals);
}

Command add_completion_command(CLI::App& app) {
  auto shell = std::make_shared<std::string>();
  CLI::App* sub = app.add_subcommand("completion", "print a bash completion script for bwlab")->group("");
  sub->add_option("shell", *shell, "the shell (only bash)")->required();
  return {sub, [shell, &app] {
            if (*shell != "bash") throw InputError("completion: unknown shell '" + *shell + "'; only bash is supported");
            std::fputs(bash_completion(app).c_str(), stdout);
            return 0;
          }};
}

}  // namespace bwlab::cli
