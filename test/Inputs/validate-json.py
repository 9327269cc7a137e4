"""Validates JSON reports against the JSON Schema the project documents and
installs: validate-json.py SCHEMA FILE... where SCHEMA names a file of
docs/schemas (emit-summary-2 for docs/schemas/emit-summary-2.schema.json).
Each FILE holds one document, or several one after another (a tool run
once per input). Prints a line per file: its documents, all valid; exits
1 naming the first that is not."""
import json
import os
import sys

import jsonschema

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir,
                    os.pardir)


def documents(text):
    decoder, at = json.JSONDecoder(), 0
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at == len(text):
            return
        document, at = decoder.raw_decode(text, at)
        yield document


def main():
    name, paths = sys.argv[1], sys.argv[2:]
    schema = json.load(open(os.path.join(ROOT, "docs", "schemas",
                                         name + ".schema.json")))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for path in paths:
        count = 0
        for document in documents(open(path).read()):
            error = jsonschema.exceptions.best_match(
                validator.iter_errors(document))
            if error:
                sys.exit("%s: document %d is not %s: %s at /%s" % (
                    path, count, name, error.message,
                    "/".join(str(part) for part in error.absolute_path)))
            count += 1
        if not count:
            sys.exit("%s: no document" % path)
        print("%s: %d valid %s" % (os.path.basename(path), count, name))


main()
