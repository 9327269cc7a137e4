//===- ProfileReport.h - A run's profile, joined to its program -*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// emit-profile as a library. An ETDump holds blocks of events and says
// neither which method a block ran nor what an instruction was; the program
// says both. Each execution block goes to the one method whose instructions
// explain its events (an OPERATOR_CALL at a kernel call, native_call_<op>
// at a call of that operator, every instruction inside its chain); each
// load block to the method the execution after it ran. Per method, each
// instruction's time over its runs, with its operator and operands or its
// backend and payload. Without a program, the events by name.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_PROFILE_PROFILEREPORT_H
#define EMIT_PROFILE_PROFILEREPORT_H

#include "emit/File/Findings.h"
#include "emit/File/ProgramModel.h"
#include "emit/Support/LLVM.h"
#include "emit/Support/Report.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace emit {
class ETDumpFile;
class FileBuffer;
class PayloadFiles;
class ProgramFile;

namespace profile {

/// Durations in nanoseconds (ETDumpGen's ticks, which the runtime's
/// platform layer gives in nanoseconds on every host ExecuTorch ships).
struct TimeStats {
  uint64_t count = 0;
  uint64_t total = 0;
  uint64_t min = 0;
  uint64_t p50 = 0;
  uint64_t p90 = 0;
  uint64_t max = 0;
};

/// The statistics of `durations` (reordered); all zero when empty.
TimeStats summarizeDurations(MutableArrayRef<uint64_t> durations);

/// Events of one name, with no program to join them to.
struct NamedEvents {
  std::string name;
  TimeStats time;
  /// Its place among the names by first occurrence: a delegate's own
  /// events in the order it logged them.
  uint32_t firstSeen = 0;
};

/// A value a kernel call reads or writes.
struct Operand {
  uint32_t value;
  /// Its kind; Unknown for an index past the method's values.
  ValueKind kind;
  /// For a tensor: its scalar type, sizes and bytes, and where its data
  /// is planned (none: constant or unplanned).
  std::string dtype;
  std::vector<int64_t> shape;
  uint64_t bytes = 0;
  std::optional<uint32_t> buffer;
  uint64_t offset = 0;
};

/// What an instruction is, from the program.
struct InstructionInfo {
  InstructionKind kind = InstructionKind::Unknown;
  /// A kernel's operator (`aten::add.out`) or a delegate's backend id.
  std::string name;
  std::vector<Operand> operands;
  /// A delegate call's payload bytes and compile spec keys.
  uint64_t payloadBytes = 0;
  std::vector<std::string> compileSpecs;
};

/// What the data of a logged tensor holds.
struct TensorStats {
  double min = 0;
  double max = 0;
  double mean = 0;
  uint64_t nan = 0;
  uint64_t inf = 0;
};

/// A value a debug event logged (an instruction's output, or a method's).
struct LoggedValue {
  /// `tensor`, `tensor_list` (one entry per tensor follows), `int`,
  /// `bool`, `float`, `double`, `string` or `null`.
  std::string kind;
  std::string dtype;
  std::vector<int64_t> shape;
  /// A tensor's statistics, when the debug buffer was given and holds its
  /// data; else why not.
  std::optional<TensorStats> stats;
  std::string noStats;
  /// A scalar's value.
  std::optional<double> scalar;
};

/// An instruction's time over a method's runs.
struct InstructionProfile {
  uint32_t chain;
  uint32_t instruction;
  InstructionInfo info;
  TimeStats time;
  /// Of the runs' total time.
  double share = 0;
  /// The events a delegate logged of its own work, by name or debug id.
  std::vector<NamedEvents> delegateEvents;
  /// What debug events logged at it in the last run that logged any.
  std::vector<LoggedValue> outputs;
};

/// An operator's or a backend's instructions together.
struct GroupProfile {
  std::string name;
  unsigned instructions = 0;
  uint64_t calls = 0;
  uint64_t totalNs = 0;
  double share = 0;
};

/// What a block records: a method's load (Program::load_method), a run
/// (Method::execute, or an instruction's events), or neither.
enum class BlockRole : uint8_t { Load, Execute, Unknown };
/// `load`, `execute` or `unknown`, as reports name it.
StringRef getBlockRoleName(BlockRole role);

/// Which method a block went to, and why.
struct BlockMatch {
  unsigned block;
  std::string name;
  BlockRole role;
  std::string how;
};

/// One method's runs, or those of methods the ETDump cannot tell apart.
struct MethodProfile {
  /// The method's name; for methods alike, theirs joined (`a | b`).
  std::string name;
  /// Methods alike (two or more): the blocks fit each of them, and the
  /// ETDump cannot tell which ran. Empty for one method.
  std::vector<std::string> candidates;
  /// The method (each of the methods alike) has no instructions.
  bool noInstructions = false;
  /// The method's index in the program (the first of methods alike).
  unsigned index = 0;
  unsigned runs = 0;
  /// Program::load_method and Method::init, over the loads seen.
  TimeStats load;
  TimeStats init;
  /// Method::execute over the runs.
  TimeStats run;
  std::vector<InstructionProfile> instructions;
  std::vector<GroupProfile> byOperator;
  std::vector<GroupProfile> byBackend;
  std::vector<BlockMatch> blocks;
  /// The method's outputs, as debug events logged them in its last run.
  std::vector<LoggedValue> outputs;
};

/// A block no method explains.
struct UnmatchedBlock {
  unsigned block;
  std::string name;
  BlockRole role;
  std::string reason;
  /// False for an execution no method's instructions explain: the ETDump
  /// does not fit the program.
  bool explained = true;
};

/// One profile event on the timeline (the Chrome trace, the page's run).
struct TimelineEvent {
  uint64_t start;
  uint64_t end;
  /// What it is reported as (a kernel call's operator, a delegate call's
  /// backend, else the event's name), the event's own name and its lane:
  /// indices into the timeline's names and lanes.
  uint32_t name;
  uint32_t event;
  uint32_t lane;
  uint32_t block;
  /// -1 for a method's own events (load, init, execute).
  int64_t chain;
  int64_t instruction;
  /// A delegate logged it.
  bool delegate;
};

/// Every profile event, in lanes: one per method, one for blocks no
/// method explains; one in all without a program.
struct Timeline {
  std::vector<std::string> names;
  std::vector<std::string> lanes;
  std::vector<TimelineEvent> events;
  /// The earliest start.
  uint64_t origin = 0;
};

/// A time in a run compared with the baseline's: of an instruction (its
/// chain and index set) or of an operator or backend in a method, per run.
struct TimeChange {
  std::string method;
  std::optional<uint32_t> chain;
  std::optional<uint32_t> instruction;
  /// The operator or backend.
  std::string name;
  uint64_t oldNs = 0;
  uint64_t newNs = 0;
};

/// How a method of both runs was compared.
struct MethodComparison {
  std::string name;
  /// Instruction by instruction (the programs' methods have the same
  /// content), or else by operator and backend name.
  bool byInstruction = false;
  /// Why it was not compared by instruction.
  std::string why;
  uint64_t oldRunNs = 0;
  uint64_t newRunNs = 0;
};

/// A run compared with a baseline run: the largest changes first.
struct ProfileComparison {
  std::string etdumpFile;
  std::string programFile;
  std::vector<MethodComparison> methods;
  std::vector<TimeChange> instructions;
  std::vector<TimeChange> operators;
  /// Methods that ran in one of the runs only.
  std::vector<std::string> onlyOld;
  std::vector<std::string> onlyNew;
};

/// A run's profile, and what the program says of it.
struct ProfileReport : Report {
  std::string etdumpFile;
  /// Empty without a program.
  std::string programFile;
  uint32_t version = 0;
  unsigned blocks = 0;
  uint64_t events = 0;
  /// Every profile event by name, in order of total time.
  std::vector<NamedEvents> byName;
  /// Per method its runs, in program order; then methods alike, as groups.
  std::vector<MethodProfile> methods;
  std::vector<UnmatchedBlock> unmatched;
  /// What reading the ETDump found (warnings: errors stop the read).
  FindingList findings;
  /// Filled when ProfileOptions::timeline asks for it.
  Timeline timeline;
  /// Set by compareWithBaseline.
  std::optional<ProfileComparison> baseline;

  /// Whether the ETDump fits the program: some method explains every
  /// execution (it may not tell which).
  bool fits() const {
    return llvm::all_of(
        unmatched, [](const UnmatchedBlock &block) { return block.explained; });
  }
  /// Text, JSON (emit-profile-1), HTML or a Chrome trace.
  void print(ReportFormat format, raw_ostream &os) const override;
};

/// What to open, and what to report.
struct ProfileOptions {
  /// The program (or bundle) that ran; empty: the ETDump alone.
  std::string program;
  /// Data files the program loaded with (checked readable).
  std::vector<std::string> dataFiles;
  /// The methods the run executed (empty: any of the program's): blocks
  /// are matched among these only.
  std::vector<std::string> methods;
  /// The run loaded and executed `methods` (none: the program's methods)
  /// in that order, each loaded before its executions: blocks are assigned
  /// by the order where their events fit (profile::assignInOrder).
  bool inOrder = false;
  /// Whether to keep every event on the report's timeline.
  bool timeline = false;
  /// The debug buffer ETDumpGen's data sink wrote logged tensors to
  /// (empty: none; debug events then give dtypes and shapes only).
  std::string debugBuffer;
};

/// The events of `etdump`, a readable ETDump, by name.
ProfileReport analyzeProfile(const ETDumpFile &etdump,
                             const ProfileOptions &options);

/// `etdump`, a readable ETDump, joined to `program`, a readable program,
/// of whose methods the run executed those `options` name (none: any).
/// Fails, with the reason in `error`, when it names no method of it.
/// `debugBuffer` holds the bytes ETDumpGen's data sink wrote.
FailureOr<ProfileReport> analyzeProfile(const ETDumpFile &etdump,
                                        const ProgramFile &program,
                                        const ProfileOptions &options,
                                        StringRef debugBuffer,
                                        std::string &error);

/// The same, joined to every method of `model`, a readable program's model
/// of the methods the run may have executed: for a view that has the model
/// already (emit-graph's times).
FailureOr<ProfileReport> analyzeProfile(const ETDumpFile &etdump,
                                        const ProgramModel &model,
                                        const ProfileOptions &options,
                                        StringRef debugBuffer,
                                        std::string &error);

/// Opens `etdump` and the files of `options` through the job's `files`
/// and reports: emit-profile and the C API. Fails, with the reason in
/// `error`, when a file cannot be read, is not of its kind or does not
/// read (the file layer's first error).
FailureOr<ProfileReport>
analyzeProfile(std::shared_ptr<const FileBuffer> etdump, PayloadFiles &files,
               const ProfileOptions &options, std::string &error);

/// Compares `report` with `baseline`, two reports joined to their
/// programs: methods whose content is the same in both programs
/// (`sameMethods`, as emit-diff finds it) instruction by instruction, the
/// others by operator and backend; each time per run.
void compareWithBaseline(ProfileReport &report, const ProfileReport &baseline,
                         ArrayRef<std::string> sameMethods);

/// The report for people.
void printProfileText(const ProfileReport &report, raw_ostream &os);
/// The report as JSON, schema `emit-profile-1`.
void printProfileJSON(const ProfileReport &report, raw_ostream &os);
/// The report as one self-contained HTML page, with each method's first
/// run drawn from the timeline (ProfileOptions::timeline).
void printProfileHTML(const ProfileReport &report, raw_ostream &os);
/// The timeline as a Chrome trace (Trace Event Format): one complete event
/// per profile event, a lane per method; Perfetto and chrome://tracing
/// open it.
void printChromeTrace(const ProfileReport &report, raw_ostream &os);

} // namespace profile
} // namespace emit

#endif // EMIT_PROFILE_PROFILEREPORT_H
