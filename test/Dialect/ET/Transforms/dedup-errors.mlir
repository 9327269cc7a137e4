// RUN: emit-opt %s --dedup-delegate-blobs='scope=everywhere' --verify-diagnostics -o /dev/null
// RUN: not emit-opt %s --dedup-delegate-blobs='report=%t/no/such/dir/r.json' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// REPORT: error: cannot write the report: cannot open output file '{{.*}}r.json': No such file or directory

// expected-error @below {{invalid scope 'everywhere' for --dedup-delegate-blobs: expected 'program' or 'method'}}
module {
}
