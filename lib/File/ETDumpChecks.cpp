//===- ETDumpChecks.cpp - Read and check a run's ETDump ---------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What ETDumpFile::open runs: the size prefix against the file, the
// identifier, the flatbuffer with the verifier, then every block's events.
// A damaged prefix, identifier or flatbuffer stops the read; an odd event
// is a warning, one per block and kind, so that a dump of a million events
// never buries the report.
//
//===----------------------------------------------------------------------===//

#include "FindingReport.h"

#include "emit/File/ETDumpFile.h"
#include "emit/File/etdump_generated.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace emit;

/// The size prefix, the root offset, then the identifier.
static constexpr uint64_t kIdentifierOffset = etdp::kIdentifierOffset;
static constexpr uint64_t kMinETDumpSize = kIdentifierOffset + 4;

bool emit::isETDumpBuffer(StringRef bytes) {
  return bytes.size() >= kMinETDumpSize &&
         bytes.substr(kIdentifierOffset, 4) == etdp::kIdentifier;
}

namespace emit {
/// Reads and checks one ETDump, filling in its ETDumpFile.
class ETDumpChecker : FileChecker<ETDumpFile> {
public:
  explicit ETDumpChecker(ETDumpFile &file) : FileChecker(file) {}
  void run();

private:
  /// The bytes the size prefix covers, after it.
  FailureOr<uint64_t> checkSizePrefix();
  LogicalResult checkIdentifier();
  LogicalResult verifyFlatbuffer(uint64_t end);
  void checkEvents(const etdump::RunData *block, unsigned index);
};
} // namespace emit

std::unique_ptr<ETDumpFile>
ETDumpFile::open(std::shared_ptr<const FileBuffer> buffer) {
  std::unique_ptr<ETDumpFile> file(new ETDumpFile(std::move(buffer)));
  ETDumpChecker(*file).run();
  return file;
}

void ETDumpChecker::run() {
  FailureOr<uint64_t> end = checkSizePrefix();
  if (failed(end) || failed(checkIdentifier()) ||
      failed(verifyFlatbuffer(*end)))
    return;
  if (const auto *blocks = file.etdump->run_data())
    for (auto [index, block] : llvm::enumerate(*blocks))
      checkEvents(block, index);
  file.setReadable();
}

FailureOr<uint64_t> ETDumpChecker::checkSizePrefix() {
  uint64_t size = bytes.size();
  if (size < kMinETDumpSize)
    return error(Check::FileSize, 0, "file")
           << "the file has " << size << " bytes; an ETDump has at least "
           << kMinETDumpSize << " (size prefix, root offset, identifier)";
  uint64_t covered = flatbuffers::ReadScalar<uint32_t>(bytes.data());
  uint64_t end = covered + 4;
  if (end > size)
    return error(Check::ETDumpSize, 0, "size prefix")
           << "the size prefix says " << covered << " bytes follow it, but "
           << "the file has " << size - 4 << " after it: it is truncated";
  if (end < size)
    error(Check::ETDumpSize, end, "after the ETDump").warning()
        << "the file has " << size - end << " bytes after the " << covered
        << "-byte ETDump its size prefix covers; they are not read";
  return end;
}

LogicalResult ETDumpChecker::checkIdentifier() {
  StringRef identifier = bytes.substr(kIdentifierOffset, 4);
  if (identifier == etdp::kIdentifier)
    return success();
  FindingReport report(sink, Check::FileIdentifier, kIdentifierOffset,
                       "file identifier");
  report << "expected '" << etdp::kIdentifier
         << "' after the size prefix and root offset, found '"
         << llvm::toHex(identifier) << "' (hex)";
  StringRef kind = llvm::StringSwitch<StringRef>(bytes.substr(4, 4))
                       .Case(pte::kIdentifier, "program (.pte)")
                       .Case(ptd::kIdentifier, "data file (.ptd)")
                       .Case(pte::kBundledIdentifier, "bundled program (.bpte)")
                       .Default("");
  if (!kind.empty())
    report << "; this is a " << kind << ", not an ETDump (.etdp)";
  return report;
}

LogicalResult ETDumpChecker::verifyFlatbuffer(uint64_t end) {
  // Over the whole prefixed buffer, as its writer aligned it; the
  // identifier is checked above, where the generated verifier of flatcc
  // would look in the wrong place.
  flatbuffers::Verifier verifier(
      reinterpret_cast<const uint8_t *>(bytes.data()), end, /*_max_depth=*/64,
      /*_max_tables=*/end / 4 + 64);
  if (!verifier.VerifySizePrefixedBuffer<etdump::ETDump>(nullptr))
    return error(Check::Flatbuffer, 4, "ETDump")
           << "the flatbuffer in bytes [4, " << end
           << ") fails verification: the file is truncated or corrupt";
  file.etdump = flatbuffers::GetSizePrefixedRoot<etdump::ETDump>(bytes.data());
  file.flatbufferSize = end;
  return success();
}

void ETDumpChecker::checkEvents(const etdump::RunData *block, unsigned index) {
  const auto *events = block->events();
  if (!events)
    return;
  // The first offender of each kind, and how many there are.
  std::optional<unsigned> firstMixed, firstBackwards;
  unsigned mixed = 0, backwards = 0;
  for (auto [eventIndex, event] : llvm::enumerate(*events)) {
    int set = !!event->profile_event() + !!event->allocation_event() +
              !!event->debug_event();
    if (set != 1) {
      ++mixed;
      firstMixed = firstMixed.value_or(eventIndex);
    }
    const etdump::ProfileEvent *profile = event->profile_event();
    if (profile && profile->end_time() < profile->start_time()) {
      ++backwards;
      firstBackwards = firstBackwards.value_or(eventIndex);
    }
  }
  std::string where = ("run_data[" + Twine(index) + "].events[").str();
  if (firstMixed)
    error(Check::ETDumpEvent, offsetOf(events->Get(*firstMixed)),
          Twine(where) + Twine(*firstMixed) + "]")
            .warning()
        << mixed << " event(s) of this block set other than one of "
        << "profile_event, allocation_event and debug_event; reports skip them";
  if (firstBackwards)
    error(Check::ETDumpEvent, offsetOf(events->Get(*firstBackwards)),
          Twine(where) + Twine(*firstBackwards) + "].profile_event")
            .warning()
        << backwards << " profile event(s) of this block end before they "
        << "start; their duration counts as 0";
}
