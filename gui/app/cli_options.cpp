// SPDX-License-Identifier: MIT
#include "gui/app/cli_options.hpp"

#include <algorithm>
#include <filesystem>
#include <regex>

#include <fmt/format.h>

#include <CLI/CLI.hpp>

#include "core/sweep/suggest.hpp"
#include "core/version.hpp"
#include "gui/app/text_scale.hpp"

namespace bwlab::gui {
namespace {

constexpr const char* kFooter = R"(
Views: threads (GB/s against threads), size (GB/s against bytes per thread), heatmap (victim
slowdown), topology (packages, cores, PUs), table (every point), runs (the kept runs, their
verdict and a ratio comparison of two runs).

Examples:
  bwlab-gui                                   explore this machine (or a simulated one)
  bwlab-gui results/latest.csv other.json     open files as runs, each with its checkbox
  bwlab-gui --session lab.json                reopen saved runs and view
  bwlab-gui a.csv --view size --screenshot size.png --size 1200x800
                                              the size plot of a.csv as a PNG, no window
  bwlab-gui --demo                            stosb against NT: this machine beside a 2-socket server
  bwlab-gui --demo --text-scale 1.5           the same with every text 1.5x larger, for a projector

--screenshot renders off-screen (QT_QPA_PLATFORM=offscreen unless a platform is set), writes
the PNG and exits without showing a window. Exit codes: 0 done, 1 no display (neither DISPLAY
nor WAYLAND_DISPLAY, and no --screenshot), 2 bad option, unreadable input file or session, or a
screenshot path that is empty, not .png or cannot be written.
)";

}  // namespace

const std::vector<std::string>& gui_views() {
  static const std::vector<std::string> v{"threads", "size", "heatmap", "topology", "table", "runs"};
  return v;
}

ParsedCommandLine parse_gui_command_line(int argc, const char* const* argv) {
  ParsedCommandLine r;
  GuiOptions& o = r.options;
  CLI::App app{"bwlab-gui: explore a machine's memory-clearing bandwidth under contention, measured or simulated",
               "bwlab-gui"};
  app.set_version_flag("--version", std::string("bwlab-gui ") + kVersion, "print the version and exit");
  std::string size;
  app.add_option("FILES", o.files, "bwlab CSV or JSON files to open as runs");
  app.add_option("--session", o.session, "open a session saved with File > Save session (runs and view)");
  std::string views;
  for (const auto& v : gui_views()) views += (views.empty() ? "" : "|") + v;
  CLI::Option* view = app.add_option("--view", o.view, "the view to show: " + views);
  const CLI::Option* shot =
      app.add_option("--screenshot", o.screenshot, "render the window off-screen into this PNG and exit");
  app.add_option("--size", size, "window size for --screenshot (the PNG's pixels, also under QT_SCALE_FACTOR) and at start, WxH; default 1400x860");
  app.add_flag("--demo", o.demo, "open the demo: this machine's measured curves (the newest run in the results folder; a shipped sample of another machine until there is one) beside a simulated 2-socket server");
  const CLI::Option* scale = app.add_option(
      "--text-scale", o.text_scale,
      fmt::format("every text of the window (panel, plots, legend, tables; not the topology drawing, which is scaled "
                  "to fit its tab: Ctrl+wheel zooms it) at this factor of its usual size, {} to {} "
                  "(View > Larger text, Ctrl++; kept for the next start); default: as last time",
                  text_scale::kMin, text_scale::kMax));
  app.footer(kFooter);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    r.outcome = ParseOutcome::exit_ok;
    r.text = app.help();
    return r;
  } catch (const CLI::CallForVersion&) {
    r.outcome = ParseOutcome::exit_ok;
    r.text = std::string("bwlab-gui ") + kVersion + "\n";
    return r;
  } catch (const CLI::ParseError& e) {
    r.outcome = ParseOutcome::exit_usage;
    std::string what = e.what();
    std::replace(what.begin(), what.end(), '\n', ' ');
    if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr)  // "--vew threads": name the option meant
      for (const std::string& arg : app.remaining()) {
        if (arg.size() < 2 || arg[0] != '-') continue;
        const std::string name = arg.substr(0, arg.find('='));
        std::vector<std::string> names;
        for (const CLI::Option* opt : app.get_options())
          for (const std::string& l : opt->get_lnames()) names.push_back("--" + l);
        const std::string near = nearest_name(name, names);
        what = "unknown option " + name + (near.empty() ? std::string() : "; did you mean " + near + "?");
        break;
      }
    r.text = fmt::format("bwlab-gui: {} (see bwlab-gui --help)", what);
    return r;
  }
  auto fail = [&](std::string text) {
    r.outcome = ParseOutcome::exit_usage;
    r.text = "bwlab-gui: " + std::move(text);
    return r;
  };
  if ((view->count() > 0 || !o.view.empty()) &&  // given as "" too: not silently "as last time"
      std::find(gui_views().begin(), gui_views().end(), o.view) == gui_views().end())
  {
    const std::string near = nearest_name(o.view, gui_views());
    if (!near.empty())
      return fail(fmt::format("unknown --view '{}'; did you mean {}? (views: {})", o.view, near, views));
    return fail(fmt::format("unknown --view '{}': use {}", o.view, views));
  }
  if (!size.empty()) {
    static const std::regex wxh(R"((\d{1,9})[xX](\d{1,9}))");
    std::smatch m;
    if (!std::regex_match(size, m, wxh))
      return fail(fmt::format("bad --size '{}': use WIDTHxHEIGHT in pixels, e.g. 1400x860", size));
    o.width = std::stoi(m[1]);
    o.height = std::stoi(m[2]);
    if (o.width < 320 || o.height < 240 || o.width > 8192 || o.height > 8192)
      return fail(fmt::format("bad --size '{}': from 320x240 to 8192x8192 pixels, and no smaller than the window's "
                              "minimum size (larger at larger text; a size below it is refused with its figure "
                              "once the window is laid out)",
                              size));
  }
  if (scale->count() > 0 && !(o.text_scale >= text_scale::kMin && o.text_scale <= text_scale::kMax))
    return fail(fmt::format("bad --text-scale {}: use a factor from {} to {}, e.g. 1.5", o.text_scale,
                            text_scale::kMin, text_scale::kMax));
  // Given at all, even as "": an empty path is a bad path, not "no screenshot" (that would open
  // the window and wait, and a script would hang).
  if (shot->count() > 0) {
    const std::filesystem::path p(o.screenshot);
    std::string ext = p.extension().string(), name = p.filename().string();
    const auto lower = [](std::string& t) {
      std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    };
    lower(ext);
    lower(name);
    if (o.screenshot.empty()) return fail("--screenshot '': the file name is empty (give a path ending in .png)");
    if (name == ".png")
      return fail(fmt::format("--screenshot {}: the file name is empty (give a name before .png)", o.screenshot));
    if (ext != ".png") return fail(fmt::format("--screenshot {}: the file must end in .png", o.screenshot));
    const std::filesystem::path dir = p.has_parent_path() ? p.parent_path() : std::filesystem::path(".");
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec))
      return fail(fmt::format("--screenshot {}: directory {} does not exist", o.screenshot, dir.string()));
  }
  return r;
}

}  // namespace bwlab::gui
