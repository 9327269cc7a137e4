//===- ReplanPrint.cpp - The re-plan report, for people and programs ------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Memory/Replan.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"

using namespace emit;
using namespace emit::memory;

/// `after / bound` as "1.03x", or "-" without a bound.
static std::string formatRatio(uint64_t after, uint64_t bound) {
  if (!bound)
    return "-";
  std::string text;
  llvm::raw_string_ostream(text)
      << llvm::format("%.3fx", double(after) / double(bound));
  return text;
}

static void printPoolText(const PoolPlan &pool, raw_ostream &os) {
  os << "    buffer " << pool.memoryId << (pool.fast ? " (fast)" : "") << ": "
     << pool.bytesBefore << " -> " << pool.bytesAfter << " bytes, lower bound "
     << pool.lowerBound << " (" << formatRatio(pool.bytesAfter, pool.lowerBound)
     << "), " << counted(pool.tensors, "tensor") << " in "
     << counted(pool.units, "unit") << ", " << pool.algorithm;
  if (!pool.keptBecause.empty())
    os << ": " << pool.keptBecause;
  os << "\n";
}

static void printMethodText(const MethodPlan &method, raw_ostream &os) {
  os << "method '" << method.name
     << "': " << counted(method.instructions, "instruction") << ", "
     << method.getBytesBefore() << " -> " << method.getBytesAfter()
     << " planned bytes, lower bound " << method.getLowerBound() << ", "
     << counted(method.placements.size(), "tensor") << " moved\n";
  if (!method.keptBecause.empty())
    os << "    kept its plan: " << method.keptBecause << "\n";
  for (const PoolPlan &pool : method.pools)
    printPoolText(pool, os);
  if (method.trafficBytes &&
      llvm::any_of(method.pools, [](const PoolPlan &p) { return p.fast; }))
    os << "    fast memory takes " << method.fastTrafficBytes << " of "
       << method.trafficBytes << " bytes instructions read and write ("
       << formatPercent(100.0 * method.fastTrafficBytes / method.trafficBytes)
       << ")\n";
}

static void printText(const ReplanReport &report, raw_ostream &os) {
  uint64_t before = 0, after = 0, bound = 0;
  for (const MethodPlan &method : report.methods) {
    printMethodText(method, os);
    before += method.getBytesBefore();
    after += method.getBytesAfter();
    bound += method.getLowerBound();
  }
  os << "total: " << before << " -> " << after << " planned bytes, lower bound "
     << bound << " (" << formatRatio(after, bound) << ")\n";
}

static void printPoolJSON(const PoolPlan &pool, llvm::json::OStream &json) {
  json.objectBegin();
  json.attribute("memory_id", pool.memoryId);
  json.attribute("fast", pool.fast);
  json.attribute("bytes_before", pool.bytesBefore);
  json.attribute("bytes_after", pool.bytesAfter);
  json.attribute("lower_bound", pool.lowerBound);
  json.attribute("tensors", pool.tensors);
  json.attribute("units", pool.units);
  json.attribute("algorithm", pool.algorithm);
  if (!pool.keptBecause.empty())
    json.attribute("kept_because", pool.keptBecause);
  json.objectEnd();
}

static void printMethodJSON(const MethodPlan &method,
                            llvm::json::OStream &json) {
  json.objectBegin();
  json.attribute("name", method.name);
  json.attribute("index", method.index);
  json.attribute("instructions", method.instructions);
  json.attribute("bytes_before", method.getBytesBefore());
  json.attribute("bytes_after", method.getBytesAfter());
  json.attribute("lower_bound", method.getLowerBound());
  json.attribute("moved", uint64_t(method.placements.size()));
  if (!method.keptBecause.empty())
    json.attribute("kept_because", method.keptBecause);
  json.attributeArray("buffer_sizes", [&] {
    for (int64_t bytes : method.bufferSizes)
      json.value(bytes);
  });
  json.attributeArray("pools", [&] {
    for (const PoolPlan &pool : method.pools)
      printPoolJSON(pool, json);
  });
  json.attribute("traffic_bytes", method.trafficBytes);
  json.attribute("fast_traffic_bytes", method.fastTrafficBytes);
  json.objectEnd();
}

static void printJSON(const ReplanReport &report, raw_ostream &os) {
  llvm::json::OStream json(os, 2);
  uint64_t before = 0, after = 0, bound = 0;
  for (const MethodPlan &method : report.methods) {
    before += method.getBytesBefore();
    after += method.getBytesAfter();
    bound += method.getLowerBound();
  }
  json.objectBegin();
  json.attribute("schema", "emit-replan-1");
  json.attribute("file", report.file);
  json.attribute("bytes_before", before);
  json.attribute("bytes_after", after);
  json.attribute("lower_bound", bound);
  json.attributeArray("methods", [&] {
    for (const MethodPlan &method : report.methods)
      printMethodJSON(method, json);
  });
  json.objectEnd();
  os << "\n";
}

void ReplanReport::print(ReportFormat format, raw_ostream &os) const {
  if (format == ReportFormat::JSON)
    return printJSON(*this, os);
  printText(*this, os);
}
