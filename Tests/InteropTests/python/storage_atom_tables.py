"""Reads an Atom table list and writes a Create Table body with azure-storage 0.20.3's own code.

    python storage_atom_tables.py TABLES.xml NAME OUT.xml

The list goes the way a Query Tables response goes through `TableService.query_tables`, no network
involved: it becomes the SDK's `HTTPResponse`, and `_ETreeXmlToObject.convert_response_to_feeds(response,
_convert_etree_element_to_table)` turns each `<entry>` into a `Table`. The names are printed as a JSON
array. OUT.xml receives the body `TableService.create_table(NAME)` sends (`_convert_table_to_xml`).
"""

import json
import sys

from azure.storage._common_serialization import _ETreeXmlToObject
from azure.storage._http import HTTPResponse
from azure.storage.table._serialization import _convert_etree_element_to_table, _convert_table_to_xml


def main(path, name, out):
    with open(path, "rb") as handle:
        body = handle.read()
    response = HTTPResponse(200, "OK", [("content-type", "application/atom+xml;charset=utf-8")], body)
    tables = _ETreeXmlToObject.convert_response_to_feeds(response, _convert_etree_element_to_table)
    body = _convert_table_to_xml(name)
    with open(out, "wb") as handle:
        handle.write(body.encode("utf-8") if isinstance(body, str) else body)
    print(json.dumps([table.name for table in tables]))


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: storage_atom_tables.py TABLES.xml NAME OUT.xml")
    main(*sys.argv[1:])
