// SPDX-License-Identifier: MIT
#include "gui/app/demo.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <filesystem>
#include <set>
#include <sstream>

#include <QFile>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/insight/verdict.hpp"
#include "core/kernels/cpu_features.hpp"
#include "core/kernels/kernels.hpp"
#include "core/report/csv.hpp"
#include "core/report/units.hpp"
#include "core/sysinfo/sysinfo.hpp"
#include "gui/app/run_controller.hpp"
#include "gui/app/verdict_panel.hpp"

static void init_demo_resource() { Q_INIT_RESOURCE(demo); }  // the resource lives in a static library

namespace bwlab::gui {
namespace {

bool has_measured_scaling(const Dataset& d, const std::string& host, const std::string& cpu) {
  std::set<std::string> kernels;
  for (const Point& p : d.points)
    if (p.scenario == "scaling" && p.source == "measured" && same_machine(p.host, p.cpu_model, host, cpu))
      kernels.insert(p.kernel);
  return kernels.size() >= 2;
}

// The newest file in `dir` holding scaling points measured on this host with this CPU (at least two
// kernels; a guest keeps its host name on another CPU).
std::optional<KeptRun> local_measured(const std::string& dir, const std::string& host, const std::string& cpu) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return std::nullopt;
  std::vector<std::pair<fs::file_time_type, fs::path>> files;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string ext = e.path().extension().string();
    if (e.is_regular_file(ec) && (ext == ".csv" || ext == ".json")) files.emplace_back(e.last_write_time(ec), e.path());
  }
  std::sort(files.rbegin(), files.rend());
  for (const auto& [when, path] : files) {
    try {
      Dataset d = load_dataset(path.string());
      if (!has_measured_scaling(d, host, cpu)) continue;
      std::erase_if(d.points, [&](const Point& p) {
        return p.scenario != "scaling" || !same_machine(p.host, p.cpu_model, host, cpu);
      });
      d.name = fmt::format("{} measured ({})", host, path.filename().string());
      d.from_file = true;
      return KeptRun{std::move(d), "demo", true};
    } catch (const std::exception&) {
      continue;  // not a bwlab file: look at the next one
    }
  }
  return std::nullopt;
}

// What the victim run shows, from its points: the largest slowdown and where.
std::string victim_note(const std::vector<Point>& points) {
  const Point* worst = nullptr;
  for (const Point& p : points)
    if (std::isfinite(p.slowdown_pct) && (!worst || p.slowdown_pct > worst->slowdown_pct)) worst = &p;
  if (!worst) return {};
  return fmt::format("The Victim tab shows one thread clearing beside k others on the server: {} alone {:.1f} GB/s, "
                     "{:.1f} GB/s ({:.0f}% slower) beside {} x {} (predicted).",
                     worst->kernel, worst->baseline_gbps, worst->gbps_median, worst->slowdown_pct, worst->peer_threads,
                     worst->peer_kernel);
}

KeptRun committed_sample() {
  init_demo_resource();
  QFile f(":/demo/measured.csv");
  if (!f.open(QIODevice::ReadOnly)) throw std::runtime_error("the demo's measured sample is missing from the build");
  std::istringstream in(f.readAll().toStdString());
  Dataset d;
  d.points = read_csv(in);
  const std::string host = d.points.empty() ? "?" : d.points.front().host;
  const std::string cpu = d.points.empty() ? "" : d.points.front().cpu_model;
  d.name = fmt::format("{} measured (sample, {})", host, cpu);
  d.from_file = true;
  return KeptRun{std::move(d), "demo", true};
}

// Keeps the story readable: stosb and the widest NT kernel present, at the two largest sizes.
void focus(Dataset& d) {
  std::set<std::string> kernels;
  std::set<std::uint64_t> sizes;
  for (const Point& p : d.points) {
    kernels.insert(p.kernel);
    sizes.insert(p.size_bytes);
  }
  std::string nt;
  for (const char* k : {"avx512-nt", "avx2-nt", "movntdq", "movnti", "clzero"})
    if (nt.empty() && kernels.count(k)) nt = k;
  const std::uint64_t second = sizes.size() >= 2 ? *std::next(sizes.rbegin()) : 0;
  std::erase_if(d.points, [&](const Point& p) {
    return (p.kernel != "stosb" && p.kernel != nt) || p.size_bytes < second;
  });
}

}  // namespace

bool is_victim_run(const KeptRun& r) {
  return !r.data.points.empty() && std::all_of(r.data.points.begin(), r.data.points.end(),
                                               [](const Point& p) { return p.scenario == "victim"; });
}

Demo build_demo(const std::string& results_dir) {
  Demo demo;
  std::optional<KeptRun> measured = local_measured(results_dir, host_name(), detect_cpu_features().model_name);
  const bool sample = !measured;  // nothing measured here yet: a shipped sample of another machine
  demo.runs.push_back(measured ? std::move(*measured) : committed_sample());
  focus(demo.runs.front().data);

  std::set<std::string> kernels;
  std::set<std::uint64_t> sizes;
  // The server's thread counts, and the measured ones it can host, so each measured curve has a
  // simulated one at the same count (the size plot draws one thread count).
  std::set<int> threads = {1, 2, 4, 8, 16, 26, 52, 104};
  for (const Point& p : demo.runs.front().data.points) {
    kernels.insert(p.kernel);
    sizes.insert(p.size_bytes);
    if (p.threads >= 1 && p.threads <= *threads.rbegin()) threads.insert(p.threads);  // the server has 104 PUs
  }
  std::string kernel_list, size_list;
  for (const auto& k : kernels) kernel_list += (kernel_list.empty() ? "" : ",") + k;
  for (const auto& z : sizes) size_list += fmt::format("{}{}", size_list.empty() ? "" : ",", z);
  const CpuFeatures cpu = detect_cpu_features();
  for (const auto& k : kernels)
    if (const KernelInfo* info = find_kernel(k); info && kernel_availability(*info, cpu).available)
      demo.panel_kernels += (demo.panel_kernels.empty() ? "" : ",") + k;
  for (const auto& z : sizes) demo.panel_sizes += (demo.panel_sizes.empty() ? "" : ",") + format_bytes(z);
  RunRequest r;
  r.simulate = true;
  r.machine = kDemoMachine;
  r.kernels = QString::fromStdString(kernel_list);
  r.sizes = QString::fromStdString(size_list);
  r.threads = QString::fromStdString(fmt::format("{}", fmt::join(threads, ",")));
  SimulatedRun sim = simulate_request(r);
  Dataset d;
  d.name = fmt::format("{} simulated, 2 sockets", kDemoMachine);
  d.points = std::move(sim.points);
  d.from_file = true;
  demo.runs.push_back(KeptRun{std::move(d), "simulated", true});
  demo.machine = sim.machine;
  demo.topology = std::move(sim.topology);
  if (!sizes.empty()) {  // The Victim tab: one stosb thread, then one NT thread, beside k aggressors of each kernel.
    RunRequest v = r;
    v.scenario = "victim";
    v.victims = v.aggressors = r.kernels;
    v.sizes = QString::number(*sizes.rbegin());  // the largest: the one DRAM, not the LLC, serves
    Dataset dv;
    dv.name = fmt::format("{} simulated, victim", kDemoMachine);
    dv.points = simulate_request(v).points;
    dv.from_file = true;
    demo.victim_note = victim_note(dv.points);
    demo.runs.push_back(KeptRun{std::move(dv), "simulated", true});
  }
  {
    // The server's scaling run (the victim run, added after it, would show a victim point).
    const auto server = std::find_if(demo.runs.rbegin(), demo.runs.rend(), [](const KeptRun& r) { return !is_victim_run(r); });
    const std::vector<Point>& pts = server->data.points;
    int most = 0;
    std::uint64_t largest = 0;
    for (const Point& p : pts) most = std::max(most, p.threads), largest = std::max(largest, p.size_bytes);
    const Point* shown = nullptr;  // half the PUs, else all of them
    for (const Point& p : pts) {
      if (p.kernel == "stosb" || p.size_bytes != largest) continue;
      if (p.threads == most / 2) {
        shown = &p;
        break;
      }
      if (p.threads == most) shown = &p;
    }
    if (shown) {
      demo.topology_point = *shown;
      for (const Point& p : pts)
        if (p.kernel == shown->kernel && p.size_bytes == shown->size_bytes && p.threads == 1)
          demo.topology_scale = p.gbps_per_thread_median;
      demo.topology_note = fmt::format(
          "The Topology tab shows the server's {} of {} PUs running {} at {} per thread (placement {}), each coloured "
          "by its predicted GB/s ({:.1f} GB/s per thread, {:.0f} GB/s in all){}.",
          shown->threads, most, shown->kernel, format_bytes(shown->size_bytes, " "), shown->placement,
          shown->gbps_per_thread_median, shown->gbps_median,
          demo.topology_scale > shown->gbps_per_thread_median
              ? fmt::format(", on a scale up to what one thread alone gets ({:.1f} GB/s): each has {:.0f}% of it",
                            demo.topology_scale, 100 * shown->gbps_per_thread_median / demo.topology_scale)
              : std::string());
    }
  }
  // What the Runs tab's verdict calls for each run (its first pair), read from the data, so the
  // story never promises a winner that the figures do not show.
  std::vector<std::string> calls;
  std::set<std::string> recommendations;
  // A measured call of this host from cached clears only is said so, as the Runs tab says it (the
  // story called it a disagreement with the server's DRAM-bound prediction, "the machine decides").
  const VerdictOptions& judged = verdict_options_here();
  bool cached_call = false;
  for (const KeptRun& r : demo.runs) {
    if (is_victim_run(r)) continue;  // the story names the calls of kernels run alone; the Runs tab has the victim's
    std::vector<PairVerdict> v;
    try {
      v = compute_verdicts(r.data.points);
    } catch (const std::exception&) {
      // ambiguous points: the Runs tab says why; the story names no call for this run
    }
    if (v.empty()) continue;
    recommendations.insert(to_string(v.front().recommendation));
    cached_call = cached_call || call_from_cache_only(v.front(), judged);
    // The call is of the largest size judged: said, since a smaller size's curves may show the
    // other order (the sample's 32 MiB NT ahead beside "NT slow" read as a contradiction).
    std::uint64_t judged_at = 0;
    for (const ThreadsVerdict& t : v.front().rows) judged_at = std::max(judged_at, t.largest);
    calls.push_back(fmt::format("{} {} vs {}: {}{}",
                                r.origin == "simulated" ? "predicted for the server"
                                : sample                ? "measured on the sample's machine"
                                                        : "measured here",
                                v.front().wa_kernel, v.front().nt_kernel, recommendation_label(v.front(), judged),
                                judged_at > 0 ? fmt::format(" (judged at {})", format_bytes(judged_at, " ")) : ""));
  }
  demo.story = fmt::format(
      "demo: {} beside {} predicted on a 2-socket server ({}). The Runs tab's verdict says, per run, which store "
      "wins at one thread and at many, and the thread count where the winner changes (the crossover){}{}. {} "
      "Untick a run to see the other alone.",
      demo.runs.front().data.name, fmt::format("{}", fmt::join(kernels, " and ")), kDemoMachine, calls.empty() ? "" : ": ", fmt::format("{}", fmt::join(calls, "; ")),
      // Said as the calls are: "where the two disagree" over two equal calls read as a contradiction.
      calls.size() < 2 ? "The machine, not the instruction, decides: trust but verify."
      : recommendations.size() > 1 && cached_call
          ? "The two differ, but the measured call is of clears that fit in this machine's cache, the server's of "
            "clears from memory: measure sizes above the cache (Sizes) to compare like with like; trust but verify."
      : recommendations.size() > 1 ? "The two disagree: the machine, not the instruction, decides: trust but verify."
                                   : "Here the two agree; other machines, sizes and loads may not: trust but verify.");
  return demo;
}

}  // namespace bwlab::gui
