//===- Blocks.cpp - An ETDump's blocks, and the methods they ran -*- C++ -*-=//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The runtime opens a block named "Default" in Program::load_method and one
// named "Execute" in each Method::execute, and names neither method. An
// execution's events carry chain and instruction indices and the kind of
// call (OPERATOR_CALL, native_call_<kernel>, DELEGATE_CALL, ...): the
// method whose instructions are those is the one that ran. A load's events
// carry nothing of the method: it is told by the order of loads and
// executions.
//
//===----------------------------------------------------------------------===//

#include "Blocks.h"

#include "Events.h"

#include "emit/File/ETDumpFile.h"
#include "emit/File/etdump_generated.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"

using namespace emit;
using namespace emit::profile;

std::string ProfileEvent::getReportName() const {
  if (!name.empty() || !delegate || delegateId < 0)
    return name.str();
  return "#" + std::to_string(delegateId);
}

static ProfileEvent readEvent(const etdump::ProfileEvent &event) {
  ProfileEvent read{"",
                    event.chain_index(),
                    event.instruction_id(),
                    event.start_time(),
                    event.end_time(),
                    false,
                    event.delegate_debug_id_int()};
  if (event.name())
    read.name = event.name()->string_view();
  if (event.delegate_debug_id_str()) {
    read.delegate = true;
    if (read.name.empty())
      read.name = event.delegate_debug_id_str()->string_view();
  }
  read.delegate |= read.delegateId >= 0;
  return read;
}

static BlockRole getRole(ArrayRef<ProfileEvent> events) {
  BlockRole role = BlockRole::Unknown;
  for (const ProfileEvent &event : events) {
    EventKind kind = classifyEvent(event.name, event.delegate).kind;
    if (event.isOfInstruction() || kind == EventKind::Execute)
      return BlockRole::Execute;
    if (kind == EventKind::Load || kind == EventKind::Init)
      role = BlockRole::Load;
  }
  return role;
}

std::vector<Block> profile::readBlocks(const ETDumpFile &etdump) {
  std::vector<Block> blocks;
  const auto *runData = etdump.getETDump()->run_data();
  if (!runData)
    return blocks;
  for (auto [index, data] : llvm::enumerate(*runData)) {
    Block block;
    block.index = index;
    block.name = data->name() ? data->name()->str() : "";
    if (const auto *events = data->events()) {
      block.events.reserve(events->size());
      for (const etdump::Event *event : *events) {
        const etdump::ProfileEvent *profile = event->profile_event();
        const etdump::DebugEvent *debug = event->debug_event();
        // An event that sets more than one kind is skipped (a finding).
        if (!!profile + !!debug + !!event->allocation_event() != 1)
          continue;
        if (profile)
          block.events.push_back(readEvent(*profile));
        else if (debug && debug->debug_entry())
          block.debugEvents.push_back({int64_t(debug->chain_index()),
                                       debug->instruction_id(),
                                       debug->debug_entry()});
      }
    }
    block.role = getRole(block.events);
    blocks.push_back(std::move(block));
  }
  return blocks;
}

/// Why `method` did not run `block`; none if it could have.
static std::optional<std::string> whyNotRan(const Block &block,
                                            const MethodModel &method) {
  for (const ProfileEvent &event : block.events)
    if (event.isOfInstruction())
      if (std::optional<std::string> why =
              whyNotInstruction(method, event.name, event.delegate, event.chain,
                                event.instruction))
        return why;
  return std::nullopt;
}

/// Whether `block` ran every instruction of `method`.
static bool ranEveryInstruction(const Block &block, const MethodModel &method) {
  llvm::BitVector ran(method.getInstructions().size());
  for (const ProfileEvent &event : block.events)
    if (std::optional<uint32_t> slot =
            method.getSlot(event.chain, event.instruction))
      ran.set(*slot);
  return ran.all();
}

static std::string joinNames(ArrayRef<unsigned> indices,
                             ArrayRef<MethodModel> methods) {
  std::string names;
  for (unsigned index : indices)
    names +=
        (names.empty() ? "'" : ", '") + methods[index].getName().str() + "'";
  return names;
}

static BlockAssignment matchExecution(const Block &block,
                                      ArrayRef<MethodModel> methods) {
  SmallVector<unsigned, 1> fits;
  std::string whyNone;
  for (auto [index, method] : llvm::enumerate(methods)) {
    if (std::optional<std::string> why = whyNotRan(block, method))
      whyNone += (whyNone.empty() ? "" : "; ") +
                 ("'" + method.getName() + "': " + *why).str();
    else
      fits.push_back(index);
  }
  if (fits.size() == 1)
    return {fits, "its events fit this method's instructions only"};
  if (fits.empty())
    return {{},
            "no method's instructions explain its events (" + whyNone + ")"};
  SmallVector<unsigned, 1> complete;
  for (unsigned index : fits)
    if (ranEveryInstruction(block, methods[index]))
      complete.push_back(index);
  if (complete.size() == 1)
    return {complete, "its events fit methods " + joinNames(fits, methods) +
                          "; it ran every instruction of this one only"};
  SmallVector<unsigned, 1> alike = complete.empty() ? fits : complete;
  return {alike, "its events fit " + Twine(alike.size()).str() +
                     " methods alike: the ETDump cannot tell which ran"};
}

/// Assigns each run of consecutive load blocks, from `begin`, to the
/// methods the executions after it (up to the next load) first ran, in
/// order; returns the run's end.
static size_t assignLoads(ArrayRef<Block> blocks, size_t begin,
                          ArrayRef<MethodModel> methods,
                          std::vector<BlockAssignment> &assigned) {
  size_t end = begin;
  while (end < blocks.size() && blocks[end].role == BlockRole::Load)
    ++end;
  // The methods the executions after the loads first ran, and all those
  // they may have run.
  llvm::SetVector<unsigned> executed, possible;
  bool allMatched = true;
  for (size_t next = end;
       next < blocks.size() && blocks[next].role != BlockRole::Load; ++next) {
    if (blocks[next].role != BlockRole::Execute)
      continue;
    const BlockAssignment &execution = assigned[next];
    allMatched &= execution.isMatched();
    if (execution.isMatched())
      executed.insert(execution.candidates.front());
    possible.insert(execution.candidates.begin(), execution.candidates.end());
  }
  size_t loads = end - begin;
  SmallVector<unsigned, 1> anyMethod;
  for (unsigned index = 0; index < methods.size(); ++index)
    anyMethod.push_back(index);
  for (size_t index = begin; index < end; ++index) {
    if (allMatched && executed.size() == loads) {
      assigned[index] = {{executed[index - begin]},
                         loads == 1 ? "the execution after it ran this method"
                                    : "loads and first executions come in "
                                      "the same order"};
    } else if (methods.size() == 1) {
      assigned[index] = {{0}, "the program has one method"};
    } else if (!allMatched) {
      SmallVector<unsigned, 1> candidates(possible.begin(), possible.end());
      assigned[index] = {candidates,
                         "a load: the runtime does not record which method it "
                         "loaded, and the executions after it fit " +
                             Twine(candidates.size()).str() + " methods alike"};
    } else {
      assigned[index] = {
          anyMethod,
          ("a load: the runtime does not record which method it loaded, and "
           "the " +
           Twine(loads) + " load(s) here are followed by executions of " +
           Twine(executed.size()) + " method(s)")
              .str()};
    }
  }
  return end;
}

std::vector<BlockAssignment>
profile::assignBlocks(ArrayRef<Block> blocks, ArrayRef<MethodModel> methods) {
  std::vector<BlockAssignment> assigned(blocks.size());
  for (auto [index, block] : llvm::enumerate(blocks)) {
    if (block.role == BlockRole::Execute)
      assigned[index] = matchExecution(block, methods);
    else if (block.role == BlockRole::Unknown)
      assigned[index] = {{},
                         block.events.empty()
                             ? "it has no profile events"
                             : "no event of a method's load or execution"};
  }
  for (size_t index = 0; index < blocks.size();)
    index = blocks[index].role == BlockRole::Load
                ? assignLoads(blocks, index, methods, assigned)
                : index + 1;
  return assigned;
}

namespace {
/// Blocks assigned by the order in which a run loaded and executed its
/// methods: each run of loads is of the next methods in that order; the
/// executions after one load are of its method, those after k loads (k
/// executions) of those k methods in turn. A block whose events the order's
/// method does not explain keeps what its events say.
class OrderAssigner {
public:
  OrderAssigner(ArrayRef<Block> blocks, ArrayRef<MethodModel> methods,
                ArrayRef<unsigned> order,
                std::vector<BlockAssignment> &assigned)
      : blocks(blocks), methods(methods), order(order), assigned(assigned) {}
  void run();

private:
  /// Assigns the segment of loads [loadsBegin, loadsEnd) and the
  /// executions after them up to `end`.
  void assignSegment(size_t loadsBegin, size_t loadsEnd, size_t end);
  /// Why `executions` are not of `order[position]`; none if they are.
  std::optional<std::string> whyNot(ArrayRef<size_t> executions,
                                    size_t position) const;
  /// Assigns the blocks `indices` to `order[position]`, `how` so.
  void assignAll(ArrayRef<size_t> indices, size_t position, StringRef how);
  /// Adds `why` the order does not place them to the blocks `indices`.
  void note(ArrayRef<size_t> indices, StringRef why);
  std::string ordinal(size_t position) const;

  ArrayRef<Block> blocks;
  ArrayRef<MethodModel> methods;
  ArrayRef<unsigned> order;
  std::vector<BlockAssignment> &assigned;
  /// The next method in the order.
  size_t next = 0;
};
} // namespace

std::string OrderAssigner::ordinal(size_t position) const {
  return ("method " + Twine(position + 1) + " of " + Twine(order.size()) +
          " ('" + methods[order[position]].getName() + "')")
      .str();
}

std::optional<std::string> OrderAssigner::whyNot(ArrayRef<size_t> executions,
                                                 size_t position) const {
  if (position >= order.size())
    return std::string("the order given names fewer methods than the run "
                       "loaded");
  for (size_t index : executions)
    if (std::optional<std::string> why =
            whyNotRan(blocks[index], methods[order[position]]))
      return "not " + ordinal(position) +
             " in the order given (--in-order): " + *why;
  return std::nullopt;
}

void OrderAssigner::assignAll(ArrayRef<size_t> indices, size_t position,
                              StringRef how) {
  for (size_t index : indices)
    assigned[index] = {{order[position]},
                       (how + ": " + ordinal(position)).str()};
}

void OrderAssigner::note(ArrayRef<size_t> indices, StringRef why) {
  for (size_t index : indices)
    assigned[index].how += ("; " + why).str();
}

void OrderAssigner::assignSegment(size_t loadsBegin, size_t loadsEnd,
                                  size_t end) {
  size_t loads = loadsEnd - loadsBegin, first = next;
  next += loads;
  SmallVector<size_t> executions;
  for (size_t index = loadsEnd; index < end; ++index)
    if (blocks[index].role == BlockRole::Execute)
      executions.push_back(index);
  constexpr llvm::StringLiteral kLoaded =
      "the run loaded its methods in the order given (--in-order)";
  if (loads <= 1) {
    // One load (or none at all, and one method): it and what follows.
    SmallVector<size_t> segment(executions);
    if (loads)
      segment.insert(segment.begin(), loadsBegin);
    if (std::optional<std::string> why = whyNot(executions, first))
      return note(segment, *why);
    if (loads)
      assignAll(loadsBegin, first, kLoaded);
    return assignAll(executions, first,
                     "executed after its load, in the order given "
                     "(--in-order)");
  }
  if (executions.size() == loads) {
    for (auto [offset, index] : llvm::enumerate(executions)) {
      size_t load = loadsBegin + offset;
      if (std::optional<std::string> why = whyNot(index, first + offset)) {
        note({load, index}, *why);
        continue;
      }
      assignAll(load, first + offset, kLoaded);
      assignAll(index, first + offset,
                "one execution per method loaded, in the order given "
                "(--in-order)");
    }
    return;
  }
  for (size_t offset = 0; offset < loads; ++offset)
    if (first + offset < order.size())
      assignAll(loadsBegin + offset, first + offset, kLoaded);
  note(executions,
       ("the order given cannot place it: " + Twine(loads) +
        " loads together, then " + Twine(executions.size()) + " executions")
           .str());
}

void OrderAssigner::run() {
  size_t firstLoad = llvm::find_if(blocks,
                                   [](const Block &block) {
                                     return block.role == BlockRole::Load;
                                   }) -
                     blocks.begin();
  if (firstLoad == blocks.size()) {
    // No loads: with one method, every execution is its; else one each.
    SmallVector<size_t> executions;
    for (size_t index = 0; index < blocks.size(); ++index)
      if (blocks[index].role == BlockRole::Execute)
        executions.push_back(index);
    if (order.size() == 1)
      return assignSegment(0, 0, blocks.size());
    if (executions.size() != order.size())
      return note(executions, "the order given cannot place it: the run "
                              "recorded no loads, and not one execution "
                              "per method");
    for (auto [position, index] : llvm::enumerate(executions)) {
      if (std::optional<std::string> why = whyNot(index, position))
        note(index, *why);
      else
        assignAll(index, position,
                  "one execution per method, in the order given "
                  "(--in-order)");
    }
    return;
  }
  for (size_t index = 0; index < firstLoad; ++index)
    if (blocks[index].role == BlockRole::Execute)
      note(index, "the order given cannot place it: it runs before any load");
  for (size_t begin = firstLoad; begin < blocks.size();) {
    size_t loadsEnd = begin;
    while (loadsEnd < blocks.size() && blocks[loadsEnd].role == BlockRole::Load)
      ++loadsEnd;
    size_t end = loadsEnd;
    while (end < blocks.size() && blocks[end].role != BlockRole::Load)
      ++end;
    assignSegment(begin, loadsEnd, end);
    begin = end;
  }
}

void profile::assignInOrder(ArrayRef<Block> blocks,
                            ArrayRef<MethodModel> methods,
                            ArrayRef<unsigned> order,
                            std::vector<BlockAssignment> &assigned) {
  OrderAssigner(blocks, methods, order, assigned).run();
}
