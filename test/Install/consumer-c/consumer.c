/* consumer.c - verifies the program named on its command line with the
 * installed C API, and prints emit's version and the report.
 *
 * Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0 */

#include "emit-c/Emit.h"

#include <stdio.h>

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  printf("emit %s\n", emitGetVersion());
  EmitBuffer report = {0, 0}, error = {0, 0};
  int status = emitVerifyFile(argv[1], NULL, 0, &report, &error);
  fwrite(status ? error.data : report.data, 1,
         status ? error.size : report.size, stdout);
  emitFree(&report);
  emitFree(&error);
  return status;
}
