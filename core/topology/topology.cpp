// SPDX-License-Identifier: MIT
#include "core/report/plural.hpp"
#include "core/topology/topology.hpp"

#include <hwloc.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <regex>
#include <set>
#include <sstream>
#include <ostream>
#include <utility>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/report/units.hpp"
#include "core/sweep/suggest.hpp"

namespace bwlab {
namespace {

struct BitmapDeleter {
  void operator()(hwloc_bitmap_s* b) const { hwloc_bitmap_free(b); }
};
using Bitmap = std::unique_ptr<hwloc_bitmap_s, BitmapDeleter>;

}  // namespace

Topology::Topology(Topology&& o) noexcept { *this = std::move(o); }

Topology& Topology::operator=(Topology&& o) noexcept {
  if (this != &o) {
    if (topo_) hwloc_topology_destroy(topo_);
    topo_ = std::exchange(o.topo_, nullptr);
    this_system_ = o.this_system_;
    origin_ = std::move(o.origin_);
    pus_ = std::move(o.pus_);
    numa_os_ = std::move(o.numa_os_);
    packages_ = o.packages_;
    cores_ = o.cores_;
    numa_nodes_ = o.numa_nodes_;
    llc_count_ = o.llc_count_;
    llc_bytes_ = o.llc_bytes_;
  }
  return *this;
}

Topology::~Topology() {
  if (topo_) hwloc_topology_destroy(topo_);
}

Topology Topology::local() {
  Topology t;
  hwloc_topology_init(&t.topo_);
  if (hwloc_topology_load(t.topo_) != 0) throw std::runtime_error("hwloc could not read this machine's topology");
  t.origin_ = "local";
  t.index();
  return t;
}

namespace {
// hwloc 2.9 crashes (SEGV in hwloc_insert_object_by_parent) on some malformed XML files, found
// by fuzz_xml. A file from another machine must never crash bwlab, so it is first loaded in a
// child process; only a file the child read cleanly is loaded here.
void probe_xml_in_child(const std::string& path) {
  const pid_t pid = fork();
  if (pid < 0) return;  // cannot probe: load directly
  if (pid == 0) {
    hwloc_topology_t t;
    int ok = hwloc_topology_init(&t) == 0 && hwloc_topology_set_xml(t, path.c_str()) == 0 &&
             hwloc_topology_load(t) == 0;
    _exit(ok ? 0 : 3);  // 3: hwloc refused the file cleanly (reported by the real load below)
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  // Anything but a clean exit (a signal, or a sanitizer's own exit code) is a crash.
  const bool clean = WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 3);
  if (!clean)
    throw InputError(fmt::format("cannot read hwloc XML topology '{}': hwloc crashed parsing it ({} {}); the file "
                                 "is malformed",
                                 path, WIFSIGNALED(status) ? "signal" : "exit code",
                                 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status)));
}
}  // namespace

Topology Topology::from_xml(const std::string& path) {
  // "missing or malformed" did not say which.
  if (std::error_code ec; !std::filesystem::exists(path, ec))
    throw InputError(fmt::format("cannot read hwloc XML topology '{}': no such file (`lstopo file.xml` writes one)", path));
  probe_xml_in_child(path);
  Topology t;
  hwloc_topology_init(&t.topo_);
  if (hwloc_topology_set_xml(t.topo_, path.c_str()) != 0 || hwloc_topology_load(t.topo_) != 0) {
    // The file is there (checked above): "missing or malformed" sent the user looking for it, and a
    // machine file given here was not named as one.
    std::ifstream in(path);
    std::string start;
    in >> start;
    throw InputError(
        start.empty() ? fmt::format("cannot read hwloc XML topology '{}': the file is empty (`lstopo file.xml` writes one)", path)
        : start.front() == '{'
            ? fmt::format("cannot read hwloc XML topology '{}': it is JSON, not XML (a machine file goes to "
                          "simulate --machine; `lstopo file.xml` writes a topology)",
                          path)
            : fmt::format("cannot read hwloc XML topology '{}': hwloc rejected it as malformed (`lstopo file.xml` writes "
                          "one)",
                          path));
  }
  t.origin_ = path;
  t.index();
  return t;
}

namespace {
// The number of PUs a synthetic description asks for: the product of each level's count
// ("package:2 core:26 pu:2" -> 104), saturating. hwloc takes seconds to minutes to build a
// machine of millions of objects (found by fuzz_topology: "442 pu:82" took over 10 s), so
// descriptions beyond any real machine are refused before hwloc sees them.
std::uint64_t synthetic_pu_estimate(std::string_view d) {
  std::uint64_t product = 1;
  std::size_t i = 0;
  while (i < d.size()) {
    while (i < d.size() && d[i] == ' ') ++i;
    const std::size_t start = i;
    int depth = 0;
    while (i < d.size() && (d[i] != ' ' || depth > 0)) {
      if (d[i] == '(' || d[i] == '[') ++depth;
      if ((d[i] == ')' || d[i] == ']') && depth > 0) --depth;
      ++i;
    }
    std::string_view tok = d.substr(start, i - start);
    if (tok.empty() || tok.front() == '[') continue;  // memory children do not multiply PUs
    tok = tok.substr(0, tok.find('('));
    const auto colon = tok.find(':');
    if (colon != std::string_view::npos) tok.remove_prefix(colon + 1);
    std::uint64_t n = 0;
    for (char c : tok) {
      if (c < '0' || c > '9') break;
      n = std::min<std::uint64_t>(n * 10 + static_cast<std::uint64_t>(c - '0'), 1ull << 32);
    }
    if (n > 0) product = std::min<std::uint64_t>(product * n, 1ull << 40);
  }
  return product;
}

// The level names of a synthetic string, lower-cased, as written ('Pack:2 l3:1(size=32MiB)' gives
// "pack", "l3"); a '[...]' memory-side word is none. The checks below read the levels through it.
std::vector<std::string> level_names(const std::string& description) {
  std::istringstream words(description);
  std::vector<std::string> out;
  for (std::string word; words >> word;)
    if (word.front() != '[') out.push_back(lower_case(word.substr(0, word.find_first_of(":("))));
  return out;
}

// The first level word of a synthetic string that hwloc has no type for ("cores" in
// 'package:2 cores:26 pu:2'), said with the nearest type: "'cores' is no hwloc level (did you
// mean core?); ". Empty when every word names a type (the fault is elsewhere: a count, a size).
std::string unknown_level_word(const std::string& description) {
  // hwloc_type_sscanf's names; it takes a prefix of two letters or more ("pack", "nu") too.
  static const std::vector<std::string> names = {"package", "socket", "die", "numanode", "node", "group", "core",
                                                 "pu", "proc", "machine", "misc", "memcache", "l1", "l2", "l3"};
  static const std::regex cache(R"(l[1-5][diu]?(cache)?)", std::regex::icase);
  for (const std::string& type : level_names(description)) {
    if (!type.empty() && std::isdigit(static_cast<unsigned char>(type.front()))) continue;  // a count, not a level
    const bool known = std::regex_match(type, cache) || type.rfind("group", 0) == 0 ||
                       std::any_of(names.begin(), names.end(), [&](const std::string& n) {
                         return type.size() >= 2 && n.rfind(type, 0) == 0;
                       });
    if (known) continue;
    const std::string near = nearest_name(type, names);
    return fmt::format("'{}' is no hwloc level{}; ", type, near.empty() ? "" : " (did you mean " + near + "?)");
  }
  return {};
}

// hwloc's size units (hwloc_synthetic_parse_memory_attr, case-insensitive): kB, MB, GB, TB are
// powers of 1000; KiB, MiB, GiB, TiB powers of 1024; none is bytes.
bool hwloc_size_unit(const std::string& unit) {
  static const std::regex units(R"((|[kmgt]b|[kmgt]ib))", std::regex::icase);
  return std::regex_match(unit, units);
}

// A size= or memory= attribute hwloc would misread or take at its default, refused before hwloc
// sees it: 0 (hwloc puts its default size there, not the user's figure) and a bare number under
// 4096, which hwloc reads as bytes ("size=16" is a 16-byte L3: the unit was forgotten). Empty when
// every size is usable.
std::string synthetic_size_refusal(const std::string& description) {
  static const std::regex attr(R"((size|memory)=(0x[0-9a-fA-F]+|[0-9]+)([A-Za-z]*)(?=[),\s]|$))");
  static const std::regex spaced_unit(R"((size|memory)=[0-9.]+\s+[kmgt]i?b)", std::regex::icase);
  if (std::smatch m; std::regex_search(description, m, spaced_unit))
    return fmt::format("'{}' has a space before its unit (write it without one, e.g. {}=32MiB)", m[0].str(), m[1].str());
  // No figure, or a negative one: hwloc took "size=" and "size=-0" as its default and "size=-5MiB"
  // as 16777216 TiB.
  static const std::regex unsigned_value(R"((size|memory)=([^)\s,]*))");
  for (std::sregex_iterator it(description.begin(), description.end(), unsigned_value), end; it != end; ++it) {
    const std::string value = (*it)[2].str(), name = (*it)[1].str();
    if (value.empty()) return fmt::format("{}= has no figure: give one, e.g. {}=32MiB", name, name);
    if (value.front() == '-' || value.front() == '+')
      return fmt::format("{}={} is not a size: write a positive whole number and a unit, e.g. {}=32MiB", name, value, name);
  }
  for (std::sregex_iterator it(description.begin(), description.end(), attr), end; it != end; ++it) {
    const auto& m = *it;
    if (!hwloc_size_unit(m[3].str())) continue;  // hwloc refuses it; synthetic_fault says why
    // Larger than any cache or memory node (and than 64 bits, past which the figure wrapped).
    const std::string unit = m[3].str();
    const int shift = unit.empty() ? 0 : 10 * static_cast<int>(std::string("kmgt").find(static_cast<char>(
                                                 std::tolower(static_cast<unsigned char>(unit.front())))) + 1);
    std::uint64_t n = 0;
    try {
      n = std::stoull(m[2].str(), nullptr, 0);
    } catch (const std::out_of_range&) {
      n = UINT64_MAX;
    }
    if (n > (std::uint64_t{1} << 50) >> shift)
      return fmt::format("{}={}{} is larger than any cache or memory node (above 1 PiB): check the figure and its unit",
                         m[1].str(), m[2].str(), unit);
    if (n == 0)
      return fmt::format("{}=0 is no size (hwloc would put its default there, not 0): give the real one, e.g. {}=32MiB",
                         m[1].str(), m[1].str());
    if (m[3].str().empty() && n < 4096)
      return fmt::format("{}={} is {} bytes (a size without a unit is bytes): write the unit, e.g. {}={}MiB", m[1].str(),
                         m[2].str(), m[2].str(), m[1].str(), m[2].str());
  }
  return {};
}

// A space inside a level's parentheses ("l3:1( size=32MiB)"), which hwloc refuses; said before the
// level words are read, since the words split there.
// An unbalanced parenthesis is said too ("package:2 (core:4" was "'' is no hwloc level").
std::string spaced_attribute(const std::string& description) {
  int depth = 0;
  for (char c : description) {
    depth += c == '(' ? 1 : c == ')' ? -1 : 0;
    if (depth < 0 || depth > 1) break;
  }
  if (depth > 1) return "parentheses nest (attributes go in one pair right after a level, e.g. 'l3:1(size=32MiB)'); ";
  if (depth != 0)
    return depth > 0 ? "a '(' is not closed (attributes go in one pair right after a level, e.g. 'l3:1(size=32MiB)'); "
                     : "a ')' closes nothing (attributes go in one pair right after a level, e.g. 'l3:1(size=32MiB)'); ";
  static const std::regex spaced(R"(\([^)]*\s[^)]*\))");
  std::smatch m;
  if (std::regex_search(description, m, spaced))
    return fmt::format("'{}' has a space inside the parentheses (write 'size=32MiB', no spaces); ", m[0].str());
  return {};
}

// What else is wrong with a synthetic string hwloc refused, said plainly: a level of 0 objects or
// a count that is not a whole number, a size with a decimal point (hwloc reads whole numbers) or
// a unit hwloc does not know, a last level that is not pu. Empty when
// none of these (the general advice follows).
std::string synthetic_fault(const std::string& description) {
  static const std::regex zero(R"((^|\s)([A-Za-z][A-Za-z0-9]*):0+(\s|\(|$))");
  static const std::regex count(R"((^|\s)([A-Za-z][A-Za-z0-9]*):([^\s(]*))");
  static const std::regex fraction(R"(size=([0-9]*\.[0-9]*)([KMGT]i?B)?)", std::regex::icase);
  static const std::regex size(R"((size|memory)=([^)\s,]*))");
  static const std::regex number(R"((0x[0-9a-fA-F]+|[0-9]+)([A-Za-z]*))");
  std::smatch m;
  if (std::regex_search(description, m, zero))
    return fmt::format("'{}:0' has no objects (every level holds at least 1); ", m[2].str());
  for (std::sregex_iterator it(description.begin(), description.end(), count), end; it != end; ++it)
    if (!std::regex_match((*it)[3].str(), std::regex("[0-9]+")))
      return fmt::format("'{}:{}' is no count (a level holds a whole number of objects, e.g. '{}:4'); ", (*it)[2].str(),
                         (*it)[3].str(), (*it)[2].str());
  if (std::regex_search(description, m, fraction))
    return fmt::format("size={}{} has a decimal point (hwloc takes whole numbers: write it in a smaller unit, e.g. "
                       "KiB); ",
                       m[1].str(), m[2].str());
  for (std::sregex_iterator it(description.begin(), description.end(), size), end; it != end; ++it) {
    const std::string value = (*it)[2].str();
    std::smatch v;
    if (!std::regex_match(value, v, number))
      return fmt::format("{}={} is no size hwloc reads (a whole number and a unit, e.g. 32MiB); ", (*it)[1].str(), value);
    if (!hwloc_size_unit(v[2].str()))
      return fmt::format("'{}' in {}={} is no unit hwloc reads (KiB, MiB, GiB, TiB: powers of 1024; kB, MB, GB, TB: "
                         "powers of 1000); ",
                         v[2].str(), (*it)[1].str(), value);
  }
  const std::vector<std::string> levels = level_names(description);
  const std::string type = levels.empty() ? std::string() : levels.back();
  if (!type.empty() && type != "pu" && type != "proc")
    return fmt::format("the last level is '{}', not pu (end with the PUs per core, e.g. '... core:4 pu:1'); ", type);
  return {};
}

// A level given twice ('core:4 core:2', 'pack:2 package:2', 'l3:2 l3:2': hwloc refused the first
// with its general advice alone, and took the last, an L3 inside an L3, whose LLC bwlab then did not
// find), by hwloc's own reading of the names; group levels may repeat. Empty when none is.
std::string repeated_level(const std::string& description) {
  std::set<std::pair<int, unsigned>> seen;  // hwloc type, cache depth
  for (const std::string& level : level_names(description)) {
    hwloc_obj_type_t type{};
    hwloc_obj_attr_u attr{};
    if (hwloc_type_sscanf(level.c_str(), &type, &attr, sizeof attr) != 0 || type == HWLOC_OBJ_GROUP) continue;
    const unsigned depth = hwloc_obj_type_is_cache(type) ? attr.cache.depth : 0;
    if (!seen.insert({int(type), depth}).second)
      return fmt::format("'{}' is a level given twice (each level once, from the top)", level);
  }
  return {};
}

// A NUMA level below the cores ('package:2 core:4 numa:2 pu:1'), which hwloc accepts: each core
// would hold memory nodes of its own, which no machine has (bwlab then showed 16 NUMA nodes for 8
// cores). Empty when the NUMA level, if any, is above the cores.
std::string numa_below_core(const std::string& description) {
  bool core_seen = false;
  for (const std::string& level : level_names(description)) {
    const bool numa = level == "node" || (level.size() >= 2 && std::string("numanode").rfind(level, 0) == 0);
    if (numa && core_seen)
      return "the NUMA level is below 'core' (a NUMA node holds cores: put it above them, e.g. 'package:2 numa:2 core:4 pu:1')";
    core_seen = core_seen || level == "core" || level == "pu" || level == "proc";
  }
  return {};
}
}  // namespace

Topology Topology::from_synthetic(std::string_view description) {
  constexpr std::uint64_t kMaxSyntheticPus = 8192;  // Linux x86-64 NR_CPUS at most (MAXSMP)
  for (char c : description)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e)
      throw InputError("bad synthetic topology: only printable ASCII is accepted, e.g. 'package:2 numa:1 core:26 pu:2'");
  if (const std::uint64_t pus = synthetic_pu_estimate(description); pus > kMaxSyntheticPus)
    throw InputError(fmt::format("synthetic topology '{}' describes about {} PUs; bwlab accepts up to {} (the most Linux x86-64 supports)",
                                 description, pus, kMaxSyntheticPus));
  const std::string d(description);
  if (const std::string refusal = synthetic_size_refusal(d); !refusal.empty())
    throw InputError(fmt::format("bad synthetic topology '{}': {}", d, refusal));
  for (const std::string& refusal : {spaced_attribute(d).empty() ? repeated_level(d) : std::string(), numa_below_core(d)})
    if (!refusal.empty()) throw InputError(fmt::format("bad synthetic topology '{}': {}", d, refusal));
  Topology t;
  hwloc_topology_init(&t.topo_);
  if (hwloc_topology_set_synthetic(t.topo_, d.c_str()) != 0 || hwloc_topology_load(t.topo_) != 0)
    throw InputError(fmt::format(
        "bad synthetic topology '{}': {}write levels from the top, e.g. 'package:2 numa:1 core:26 pu:2' "
        "(sizes in MiB/GiB, e.g. 'package:1 l3:1(size=32MiB) core:8 pu:2')",
        d, !spaced_attribute(d).empty()    ? spaced_attribute(d)
           : unknown_level_word(d).empty() ? synthetic_fault(d)
                                           : unknown_level_word(d)));
  t.origin_ = d;
  t.index();
  return t;
}

Topology Topology::from_spec(std::string_view spec) {
  const std::string lower = lower_case(spec);
  if (spec.empty() || lower == "local") return local();  // "LOCAL" was "'local' is no hwloc level"
  if (lower.ends_with(".xml")) return from_xml(std::string(spec));  // "syn.XML" was read as levels
  // Every synthetic level is name:count: without a colon it is a file (lstopo's XML under any name)
  // or a word that is neither ("locl", "/tmp", "syn.txt" were "'syn.txt' is no hwloc level").
  if (spec.find(':') == std::string_view::npos) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(std::string(spec), ec)) return from_xml(std::string(spec));
    const std::string near = nearest_name(lower, {"local"}).empty() ? "" : " (did you mean local?)";
    throw InputError(fmt::format("bad topology '{}'{}: give local (this machine), an hwloc XML file (lstopo file.xml "
                                 "writes one) or a synthetic string of levels, e.g. 'package:2 numa:1 core:26 pu:2'",
                                 spec, near));
  }
  return from_synthetic(spec);
}

void Topology::index() {
  this_system_ = hwloc_topology_is_thissystem(topo_) != 0;

  // PUs the process may run on: the topology's allowed set, and on the real machine the
  // calling thread's binding too (taskset and cpusets are not always visible to hwloc).
  Bitmap allowed(hwloc_bitmap_dup(hwloc_topology_get_allowed_cpuset(topo_)));
  if (this_system_) {
    Bitmap bound(hwloc_bitmap_alloc());
    if (hwloc_get_cpubind(topo_, bound.get(), HWLOC_CPUBIND_THREAD) == 0 && !hwloc_bitmap_iszero(bound.get()))
      hwloc_bitmap_and(allowed.get(), allowed.get(), bound.get());
  }

  const int n_numa = hwloc_get_nbobjs_by_type(topo_, HWLOC_OBJ_NUMANODE);
  numa_nodes_ = std::max(n_numa, 1);
  numa_os_.clear();
  for (int i = 0; i < n_numa; ++i) numa_os_.push_back(static_cast<int>(hwloc_get_obj_by_type(topo_, HWLOC_OBJ_NUMANODE, i)->os_index));
  if (numa_os_.empty()) numa_os_.push_back(0);
  packages_ = std::max(hwloc_get_nbobjs_by_type(topo_, HWLOC_OBJ_PACKAGE), 1);
  const int n_cores = hwloc_get_nbobjs_by_type(topo_, HWLOC_OBJ_CORE);
  const int n_pus = hwloc_get_nbobjs_by_type(topo_, HWLOC_OBJ_PU);
  cores_ = n_cores > 0 ? n_cores : n_pus;

  pus_.clear();
  for (int i = 0; i < n_pus; ++i) {
    hwloc_obj_t pu = hwloc_get_obj_by_type(topo_, HWLOC_OBJ_PU, i);
    Pu p;
    p.os_index = static_cast<int>(pu->os_index);
    p.logical = static_cast<int>(pu->logical_index);
    hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(topo_, HWLOC_OBJ_CORE, pu);
    p.core = core ? static_cast<int>(core->logical_index) : p.logical;
    p.smt_rank = core ? static_cast<int>(pu->sibling_rank) : 0;
    hwloc_obj_t pkg = hwloc_get_ancestor_obj_by_type(topo_, HWLOC_OBJ_PACKAGE, pu);
    p.package = pkg ? static_cast<int>(pkg->logical_index) : 0;
    p.numa_node = 0;
    for (int n = 0; n < n_numa; ++n) {
      hwloc_obj_t node = hwloc_get_obj_by_type(topo_, HWLOC_OBJ_NUMANODE, n);
      if (node->cpuset && hwloc_bitmap_isset(node->cpuset, pu->os_index)) {
        p.numa_node = n;
        break;
      }
    }
    p.allowed = hwloc_bitmap_isset(allowed.get(), pu->os_index) != 0;
    pus_.push_back(p);
  }

  llc_bytes_ = 0;
  llc_count_ = 0;
  for (hwloc_obj_type_t t : {HWLOC_OBJ_L5CACHE, HWLOC_OBJ_L4CACHE, HWLOC_OBJ_L3CACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L1CACHE}) {
    const int n = hwloc_get_nbobjs_by_type(topo_, t);
    if (n > 0) {
      llc_count_ = n;
      llc_bytes_ = hwloc_get_obj_by_type(topo_, t, 0)->attr->cache.size;
      break;
    }
  }
}

std::vector<int> Topology::allowed_pus() const {
  std::vector<int> out;
  for (const Pu& p : pus_)
    if (p.allowed) out.push_back(p.os_index);
  return out;
}

const Topology::Pu* Topology::find_pu(int os_index) const {
  for (const Pu& p : pus_)
    if (p.os_index == os_index) return &p;
  return nullptr;
}

std::string Topology::summary() const {
  std::string s = fmt::format("{}, {}, {}, {}", count_of(packages_, "package"), count_of(numa_nodes_, "NUMA node"),
                              count_of(cores_, "core"), count_of(pus_.size(), "PU"));
  if (llc_bytes_ > 0) s += fmt::format(", LLC {} x{}", format_bytes(llc_bytes_), llc_count_);
  const auto allowed = allowed_pus();
  if (allowed.size() != pus_.size()) s += fmt::format(", {} allowed", allowed.size());
  s += this_system_ ? " (this machine)" : fmt::format(" (from {}, not this machine)", origin_);
  return s;
}

namespace {
void print_obj(std::ostream& out, hwloc_topology_t topo, hwloc_obj_t obj, int depth) {
  char type[64];
  char attr[256];
  hwloc_obj_type_snprintf(type, sizeof type, obj, 0);
  attr[0] = 0;
  if (hwloc_obj_type_is_cache(obj->type)) {
    std::snprintf(attr, sizeof attr, " %s", format_bytes(obj->attr->cache.size).c_str());
  } else if (obj->type == HWLOC_OBJ_NUMANODE && obj->attr->numanode.local_memory > 0) {
    std::snprintf(attr, sizeof attr, " %s", format_bytes(obj->attr->numanode.local_memory).c_str());
  }
  std::string line(static_cast<std::size_t>(depth) * 2, ' ');
  line += type;
  if (obj->type == HWLOC_OBJ_PU || obj->type == HWLOC_OBJ_NUMANODE)
    line += fmt::format(" P#{}", obj->os_index);
  else
    line += fmt::format(" L#{}", obj->logical_index);
  line += attr;
  out << line << '\n';
  for (hwloc_obj_t c = obj->memory_first_child; c; c = c->next_sibling) print_obj(out, topo, c, depth + 1);
  for (hwloc_obj_t c = obj->first_child; c; c = c->next_sibling) print_obj(out, topo, c, depth + 1);
}
}  // namespace

void Topology::print(std::ostream& out) const {
  out << summary() << '\n';
  print_obj(out, topo_, hwloc_get_root_obj(topo_), 0);
}

}  // namespace bwlab
