// SPDX-License-Identifier: MIT
// Fuzz target: hwloc XML topology files (Topology::from_xml reads a path, so the input is
// written to a private temporary file first, under $TMPDIR, removed when the process exits).
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/errors.hpp"
#include "core/topology/placement.hpp"
#include "core/topology/topology.hpp"

namespace {

// One file per process, created by mkstemps (no name another process can hold) and removed
// when the process exits: replaying the corpus in every CI build left one file per run in /tmp.
class ScratchFile {
 public:
  ScratchFile() {
    const char* dir = std::getenv("TMPDIR");
    std::string templ = std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/bwlab-fuzz-xml-XXXXXX.xml";
    const int fd = mkstemps(templ.data(), 4);
    if (fd >= 0) {
      ::close(fd);
      path_ = templ;
    }
  }
  ~ScratchFile() {
    if (!path_.empty()) std::remove(path_.c_str());
  }
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  static const ScratchFile scratch;
  const std::string& path = scratch.path();
  if (path.empty()) return 0;
  if (FILE* f = std::fopen(path.c_str(), "wb")) {
    std::fwrite(data, 1, size, f);
    std::fclose(f);
  } else {
    return 0;
  }
  try {
    const bwlab::Topology topo = bwlab::Topology::from_xml(path);
    (void)topo.summary();
    const int n = static_cast<int>(topo.allowed_pus().size());
    if (n > 0) (void)bwlab::plan_pus(topo, bwlab::Placement{bwlab::Placement::Kind::scatter, {}}, n);
  } catch (const bwlab::InputError&) {
  }
  return 0;
}
