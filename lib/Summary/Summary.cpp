//===- Summary.cpp - What a program holds --------------------- -*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Builds the summary model of a program or data file (Summary.h), and
// `printPTESummary`, which lays it out in the format asked for.
//
//===----------------------------------------------------------------------===//

#include "emit/Summary/SummaryModel.h"

#include "emit/Delegate/PayloadDecoder.h"
#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/Dialect/ET/Transforms/Passes.h"
#include "emit/Dialect/ET/Utils/Payloads.h"
#include "emit/File/BundleFile.h"
#include "emit/File/CheckedFile.h"
#include "emit/File/DataFile.h"
#include "emit/File/ProgramFile.h"
#include "emit/File/ProgramModel.h"
#include "emit/Memory/MemoryReport.h"
#include "emit/Releases/Releases.h"
#include "emit/Summary/Summary.h"
#include "emit/Support/ContentGroups.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"

#include <algorithm>
#include <numeric>

using namespace mlir;
using namespace emit;
using namespace emit::et;
using namespace emit::summary;

StringRef summary::getKindName(DataKind kind) {
  switch (kind) {
  case DataKind::Delegate:
    return "delegate payloads";
  case DataKind::NamedData:
    return "named data";
  case DataKind::Constant:
    return "constants";
  case DataKind::Mutable:
    return "mutable data";
  case DataKind::Unnamed:
    return "unused";
  }
  return "";
}

StringRef summary::getKindKey(DataKind kind) {
  // The dialect's keyword; data that nothing names is "unused" here.
  return kind == DataKind::Unnamed ? "unused" : stringifyDataKind(kind);
}

static uint64_t byteSize(ElementsAttr data) {
  return cast<ShapedType>(data.getType()).getNumElements();
}

/// Marks `blob` as playing `role` of `kind`; its kind is its first role's.
static void addRole(Blob &blob, DataKind kind, std::string role) {
  if (blob.roles.empty() || kind < blob.kind)
    blob.kind = kind;
  blob.roles.push_back(std::move(role));
}

/// The blobs of `container` as the model's blobs, by name.
static llvm::StringMap<unsigned> collectBlobs(Operation *container,
                                              Summary &summary) {
  llvm::StringMap<unsigned> index;
  for (BlobOp blob : container->getRegion(0).front().getOps<BlobOp>()) {
    index[blob.getSymName()] = summary.blobs.size();
    Blob info;
    info.name = blob.getSymName().str();
    info.size = byteSize(blob.getData());
    info.alignment = blob.getAlignment();
    info.inlineData = blob.isInline();
    summary.blobs.push_back(std::move(info));
  }
  return index;
}

/// What a data file holds: its segments and the keys that name them.
static void summarize(DataFileOp dataFile, Summary &summary) {
  summary.name = dataFile.getSymName().str();
  summary.dataFile = true;
  llvm::StringMap<unsigned> index = collectBlobs(dataFile, summary);
  // A file in 0.6's layout: each tensor at an offset of its segment.
  for (DataTensorOp tensor : dataFile.getDataTensors()) {
    ++summary.keys;
    auto it = index.find(tensor.getBlob());
    if (it == index.end())
      continue;
    std::string role;
    llvm::raw_string_ostream(role)
        << "\"" << tensor.getFqn() << "\" at " << tensor.getOffset() << " "
        << tensor.getLayout();
    addRole(summary.blobs[it->second], DataKind::NamedData, std::move(role));
  }
  for (NamedDataOp named : dataFile.getNamedData()) {
    ++summary.keys;
    auto it = index.find(named.getBlob());
    if (it == index.end())
      continue;
    std::string role = ("\"" + named.getKey() + "\"").str();
    if (TensorLayoutAttr layout = named.getLayoutAttr())
      llvm::raw_string_ostream(role) << " " << layout;
    addRole(summary.blobs[it->second], DataKind::NamedData, std::move(role));
  }
}

namespace {
/// The backends of a program's delegate entries, and the distinct blobs
/// each one's entries name.
struct Backends {
  llvm::StringMap<unsigned> index;
  SmallVector<DenseSet<unsigned>> blobs;

  /// The index of backend `id` in `summary`, added when new.
  unsigned get(StringRef id, Summary &summary) {
    auto [it, added] = index.try_emplace(id, summary.backends.size());
    if (added) {
      summary.backends.push_back({id.str()});
      blobs.emplace_back();
    }
    return it->second;
  }
};
} // namespace

/// Adds what `entry`'s compile specs say, where a decoder knows them, to
/// `backend`.
static void countCompiledFor(DelegateOp entry, Backend &backend) {
  std::optional<ArrayAttr> specs = entry.getCompileSpecs();
  if (!specs)
    return;
  for (auto spec : specs->getAsRange<CompileSpecAttr>()) {
    std::optional<delegate::DecodedCompileSpec> decoded =
        delegate::decodeCompileSpec(backend.id, spec.getKey(), spec.getValue());
    if (!decoded)
      continue;
    auto same = [&](const CompiledFor &seen) {
      return seen.key == spec.getKey() && seen.settings == decoded->settings;
    };
    auto it = llvm::find_if(backend.compiledFor, same);
    if (it == backend.compiledFor.end())
      it = backend.compiledFor.insert(
          it, {spec.getKey().str(), std::move(decoded->settings)});
    ++it->entries;
    it->problems += !decoded->problems.empty();
  }
}

/// Counts delegate entry `entry` of the method `info` counts, whose
/// distinct blobs so far are `methodBlobs`; `index` finds blobs by name.
static void countEntry(DelegateOp entry, Method &info,
                       DenseSet<unsigned> &methodBlobs,
                       const llvm::StringMap<unsigned> &index,
                       Backends &backends, Summary &summary) {
  StringRef backendId = entry.getBackendId();
  unsigned backendIndex = backends.get(backendId, summary);
  Backend &backend = summary.backends[backendIndex];
  ++backend.entries;
  if (!llvm::is_contained(backend.methods, info.name))
    backend.methods.push_back(info.name);
  countCompiledFor(entry, backend);
  std::string user =
      (info.name + "#" + Twine(info.entries++) + " (" + backendId + ")").str();
  ++summary.entryCount;
  uint64_t size = 0;
  if (FlatSymbolRefAttr symbol = entry.getPayloadSymbol()) {
    auto blobIt = index.find(symbol.getValue());
    if (blobIt == index.end())
      return;
    Blob &blob = summary.blobs[blobIt->second];
    if (blob.users.empty()) {
      addRole(blob, DataKind::Delegate, "delegate payload");
      blob.backend = backendId.str();
    }
    blob.users.push_back(std::move(user));
    size = blob.size;
    if (methodBlobs.insert(blobIt->second).second)
      info.distinctBytes += size;
    if (backends.blobs[backendIndex].insert(blobIt->second).second)
      backend.distinctBytes += size;
  } else if (et::BlobAttr payload = entry.getInlinePayload()) {
    // Not hoisted: stored once per entry.
    size = byteSize(payload.getData());
    summary.storedPayloadBytes += size;
    summary.storedBytes += size;
    summary.inlineBytes += size;
    summary.bytesByKind[unsigned(DataKind::Delegate)] += size;
    info.distinctBytes += size;
    backend.distinctBytes += size;
  }
  info.referencedBytes += size;
  backend.referencedBytes += size;
  summary.referencedBytes += size;
}

/// What `method` holds and calls.
static Method summarizeMethod(MethodOp method,
                              const llvm::StringMap<unsigned> &index,
                              Backends &backends, Summary &summary) {
  Method info;
  info.name = method.getSymName().str();
  info.values = method.getValueDecls().size();
  if (std::optional<ArrayRef<int64_t>> buffers = method.getBuffers())
    for (int64_t size : buffers->drop_front())
      info.plannedBytes += std::max<int64_t>(size, 0);
  for (ChainOp chain : method.getChains()) {
    ++info.chains;
    info.instructions += chain.getBody().front().getOperations().size();
  }
  method.walk([&](Operation *op) {
    if (isa<CallDelegateOp>(op))
      ++info.calls;
    else if (isa<KernelCallOp>(op))
      ++info.kernelCalls;
  });
  summary.callCount += info.calls;
  DenseSet<unsigned> methodBlobs;
  for (DelegateOp entry : method.getDelegates())
    countEntry(entry, info, methodBlobs, index, backends, summary);
  return info;
}

/// What a program holds: data by role, methods, backends.
/// Adds `bytes` under `key` to `list`, keeping first appearances' order.
static void addTo(std::vector<std::pair<std::string, uint64_t>> &list,
                  StringRef key, uint64_t bytes) {
  auto it =
      llvm::find_if(list, [&](const auto &item) { return item.first == key; });
  if (it == list.end())
    list.push_back({key.str(), bytes});
  else
    it->second += bytes;
}

static PayloadContents
describePayload(const delegate::DecodedPayload &decoded) {
  PayloadContents contents;
  contents.decoder = decoded.decoder;
  contents.magic = decoded.magic;
  for (const delegate::PayloadRegion &region : decoded.regions)
    addTo(contents.parts, region.name, region.size);
  contents.target.assign(decoded.target.begin(), decoded.target.end());
  for (const delegate::NamedPart &part : decoded.namedParts)
    contents.target.push_back({part.name + " key", part.key});
  contents.problems = decoded.problems.size();
  if (!decoded.graph)
    return contents;
  contents.nodes = decoded.graph->nodes.size();
  contents.values = decoded.graph->values.size();
  for (const delegate::DecodedValue &value : decoded.graph->values) {
    if (!value.constantBytes)
      continue;
    if (value.namedKey) {
      ++contents.namedConstants;
      contents.namedConstantBytes += *value.constantBytes;
    } else {
      addTo(contents.constantsByDtype, value.dtype, *value.constantBytes);
    }
  }
  return contents;
}

/// What each delegate payload blob holds, by its backend's decoder: reads
/// headers and graphs, never constants.
static void describePayloads(ProgramOp program, Summary &summary) {
  SplatStorage splats;
  for (auto [blob, op] : llvm::zip_equal(
           summary.blobs, program->getRegion(0).front().getOps<BlobOp>())) {
    // A splat has no magic (every magic has two different bytes) and is not
    // expanded: it may stand for gigabytes.
    if (blob.backend.empty() || op.getData().isSplat())
      continue;
    std::optional<ArrayRef<char>> bytes = getPayloadBytes(op.getData(), splats);
    if (!bytes)
      continue;
    delegate::DecodedPayload decoded = delegate::decodePayload(
        {blob.backend, StringRef(bytes->data(), bytes->size())});
    if (!decoded.decoder.empty())
      blob.payload =
          std::make_shared<const PayloadContents>(describePayload(decoded));
  }
}

static void summarize(ProgramOp program, Summary &summary) {
  summary.name = program.getSymName().str();
  llvm::StringMap<unsigned> index = collectBlobs(program, summary);
  auto role = [&](std::optional<StringRef> blob, DataKind kind,
                  std::string text) {
    if (blob && index.count(*blob))
      addRole(summary.blobs[index[*blob]], kind, std::move(text));
  };
  if (ConstantSegmentOp segment = program.getConstantSegment())
    role(segment.getBlob(), DataKind::Constant, "constant segment");
  for (auto [i, segment] : llvm::enumerate(program.getMutableDataSegments()))
    role(segment.getBlob(), DataKind::Mutable,
         "mutable data " + std::to_string(i));
  for (NamedDataOp named : program.getNamedData())
    role(named.getBlob(), DataKind::NamedData,
         ("named data \"" + named.getKey() + "\"").str());
  Backends backends;
  for (MethodOp method : program.getMethods())
    summary.methods.push_back(
        summarizeMethod(method, index, backends, summary));
  describePayloads(program, summary);
}

// Data by kind, the flatbuffer's own tables, and headers and padding.
SmallVector<BytePart> summary::getByteParts(const Summary &summary) {
  SmallVector<BytePart> parts;
  for (unsigned kind = 0; kind < kNumDataKinds; ++kind)
    if (summary.bytesByKind[kind])
      parts.push_back({getKindKey(DataKind(kind)).str(),
                       getKindName(DataKind(kind)).str(),
                       summary.bytesByKind[kind]});
  uint64_t accounted =
      summary.storedBytes + summary.bytesByKind[unsigned(DataKind::Unnamed)];
  if (summary.testSuites && summary.testSuites->bytes) {
    parts.push_back(
        {"test_suites", "test suites (bundle)", *summary.testSuites->bytes});
    accounted += *summary.testSuites->bytes;
  }
  if (summary.flatbufferBytes) {
    // Inline data lies inside the flatbuffer: count it once, as data.
    uint64_t tables = *summary.flatbufferBytes -
                      std::min(*summary.flatbufferBytes, summary.inlineBytes);
    parts.push_back({"flatbuffer", "flatbuffer tables", tables});
    accounted += tables;
  }
  if (summary.fileBytes && *summary.fileBytes > accounted)
    parts.push_back(
        {"padding", "headers and padding", *summary.fileBytes - accounted});
  llvm::stable_sort(parts, [](const BytePart &a, const BytePart &b) {
    return a.bytes > b.bytes;
  });
  return parts;
}

/// The groups of blobs with identical bytes, largest saving first.
static void findIdentical(Operation *container, Summary &summary) {
  SmallVector<ArrayRef<char>> items;
  SmallVector<unsigned> blobOf;
  SplatStorage splats;
  for (auto [index, blob] :
       llvm::enumerate(container->getRegion(0).front().getOps<BlobOp>())) {
    std::optional<ArrayRef<char>> bytes =
        getPayloadBytes(blob.getData(), splats);
    if (!bytes || bytes->empty())
      continue;
    items.push_back(*bytes);
    blobOf.push_back(index);
  }
  ContentGroups groups = groupByContent(items, /*pool=*/nullptr);
  for (ArrayRef<unsigned> group : groups.groups) {
    if (group.size() < 2)
      continue;
    IdenticalGroup identical{items[group.front()].size(), {}};
    for (unsigned item : group) {
      identical.blobs.push_back(blobOf[item]);
      summary.blobs[blobOf[item]].identical = summary.identical.size();
    }
    summary.identical.push_back(std::move(identical));
  }
  // Largest saving first; program order among equals. Blobs keep their
  // group's new index.
  SmallVector<unsigned> order(summary.identical.size());
  std::iota(order.begin(), order.end(), 0);
  auto saving = [&](unsigned i) {
    const IdenticalGroup &group = summary.identical[i];
    return group.size * (group.blobs.size() - 1);
  };
  llvm::stable_sort(
      order, [&](unsigned a, unsigned b) { return saving(a) > saving(b); });
  SmallVector<IdenticalGroup> sorted;
  for (unsigned old : order) {
    for (unsigned blob : summary.identical[old].blobs)
      summary.blobs[blob].identical = sorted.size();
    sorted.push_back(std::move(summary.identical[old]));
  }
  summary.identical = std::move(sorted);
}

Summary summary::summarizeContainer(Operation *container) {
  Summary summary;
  if (auto program = dyn_cast<ProgramOp>(container))
    summarize(program, summary);
  else
    summarize(cast<DataFileOp>(container), summary);
  if (auto bundle = dyn_cast_or_null<BundleOp>(container->getParentOp())) {
    summary.testSuites.emplace();
    for (TestSuiteOp suite : bundle.getTestSuites()) {
      ++summary.testSuites->suites;
      summary.testSuites->testCases += llvm::range_size(suite.getTestCases());
    }
  }
  for (const Blob &blob : summary.blobs) {
    summary.bytesByKind[unsigned(blob.kind)] += blob.size;
    if (blob.roles.empty())
      continue;
    summary.storedBytes += blob.size;
    if (blob.inlineData)
      summary.inlineBytes += blob.size;
    if (blob.kind == DataKind::Delegate)
      summary.storedPayloadBytes += blob.size;
  }
  return summary;
}

/// The summary of the one program (or else the one data file) in
/// `module`, or failure; with the groups of identical blobs if `identical`.
static FailureOr<Summary> summarizeModule(ModuleOp module, bool identical) {
  SmallVector<ProgramOp> programs = et::getPrograms(module);
  auto dataFiles = llvm::to_vector(module.getOps<DataFileOp>());
  Operation *container;
  if (programs.size() == 1)
    container = programs.front();
  else if (programs.empty() && dataFiles.size() == 1)
    container = dataFiles.front();
  else
    return mlir::emitError(module.getLoc(), "expected one 'et.program' or "
                                            "one 'et.data_file' to summarize");
  Summary summary = summarizeContainer(container);
  if (identical)
    findIdentical(container, summary);
  return summary;
}

LogicalResult emit::printPTESummary(ModuleOp module, raw_ostream &os,
                                    const PTESummaryOptions &options) {
  if (failed(et::checkPayloadFiles(module)))
    return failure();
  FailureOr<Summary> summary = summarizeModule(module, /*identical=*/true);
  if (failed(summary))
    return failure();
  summary->fileBytes = options.fileBytes;
  summary->flatbufferBytes = options.flatbufferBytes;
  summary->releases = options.releases;
  summary->kernels = options.kernels;
  if (summary->testSuites)
    summary->testSuites->bytes = options.testSuiteBytes;
  for (Method &method : summary->methods)
    for (const auto &[name, bytes] : options.methodAllocatorBytes)
      if (name == method.name)
        method.methodAllocatorBytes.assign(bytes.begin(), bytes.end());

  // What deduplication would store: run the pass on a copy.
  OwningOpRef<ModuleOp> copy(module.clone());
  PassManager pm(module.getContext());
  pm.addPass(et::createDedupDelegateBlobs());
  if (failed(pm.run(*copy)))
    return failure();
  FailureOr<Summary> after = summarizeModule(*copy, /*identical=*/false);
  if (failed(after))
    return failure();
  summary->storedBytesAfterDedup = after->storedBytes;
  summary->storedPayloadBytesAfterDedup = after->storedPayloadBytes;
  summary->blobsAfterDedup = after->blobs.size();

  summary->print(options.format, os);
  return success();
}

void summary::Summary::print(ReportFormat format, raw_ostream &os) const {
  switch (format) {
  case ReportFormat::JSON:
    return printJSON(*this, os);
  case ReportFormat::SVG:
    return printSVG(*this, os);
  case ReportFormat::HTML:
    return printHTML(*this, os);
  default:
    return printText(*this, os);
  }
}

PTESummaryOptions
emit::getSummaryOptionsFor(const CheckedFile &file, ReportFormat format,
                           const kernels::KernelSpec *kernels) {
  PTESummaryOptions options;
  options.format = format;
  options.fileBytes = file.getBytes().size();
  // The flatbuffer, with the header inserted in it: as its header says, or
  // the whole file when it has none.
  options.flatbufferBytes = file.getFlatbufferSize();
  const ProgramFile *program = getProgramOf(file);
  if (const auto *bundle = dyn_cast<BundleFile>(&file); bundle && program) {
    options.flatbufferBytes = program->getFlatbufferSize();
    options.testSuiteBytes =
        file.getBytes().size() - program->getBytes().size();
  }
  if (program && program->isReadable()) {
    // One model for the memory figures and the release verdicts.
    ProgramModel model(*program);
    for (auto &[name, bytes] : memory::getMethodAllocatorBytes(model))
      options.methodAllocatorBytes.push_back({name, std::move(bytes)});
    options.releases = judgeReleases(model, DataFileCounts()).getLoading();
    if (kernels) {
      unsigned main = getReleaseNames().size() - 1;
      options.kernels = kernels::checkKernelCalls(
          kernels::groupKernelCalls(model), *kernels, main);
      options.kernels->release = getReleaseNames()[main].str();
    }
  }
  if (const auto *data = dyn_cast<DataFile>(&file); data && data->isReadable())
    options.releases = judgeDataFileReleases(*data).getLoading();
  return options;
}
