"""Validates a report file against a published schema; prints each error and exits 1 if any.

    validate_report.py sarif SCHEMA.json REPORT.sarif
    validate_report.py junit SCHEMA.xsd REPORT.xml

SARIF: jsonschema with the validator class the schema's own `$schema` names (draft-04 for the OASIS
file), and format checking on, so `uri`/`uri-reference` values must be real RFC 3986 references
(checked by rfc3986-validator). JUnit: xmlschema, which also rejects XML that is not well-formed.
"""

import json
import sys


def validate_sarif(schema_path, report_path):
    import jsonschema

    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    with open(report_path, encoding="utf-8") as f:
        document = json.load(f)
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    # FormatChecker() holds every format jsonschema knows, including uri-reference, which the
    # draft-04 checker alone would not test.
    validator = validator_class(schema, format_checker=jsonschema.FormatChecker())
    return [
        f"{'/'.join(map(str, error.absolute_path)) or '<root>'}: {error.message}"
        for error in sorted(validator.iter_errors(document), key=lambda e: list(map(str, e.absolute_path)))
    ]


def validate_junit(schema_path, report_path):
    import xmlschema

    schema = xmlschema.XMLSchema(schema_path)
    try:
        return [str(error) for error in schema.iter_errors(report_path)]
    except Exception as error:  # not well-formed: the parser raises before any schema error
        return [f"{type(error).__name__}: {error}"]


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("sarif", "junit"):
        print(__doc__, file=sys.stderr)
        return 2
    kind, schema_path, report_path = sys.argv[1:]
    errors = (validate_sarif if kind == "sarif" else validate_junit)(schema_path, report_path)
    for error in errors:
        print(error, file=sys.stderr)
    if errors:
        return 1
    print("valid")
    return 0


if __name__ == "__main__":
    sys.exit(main())
