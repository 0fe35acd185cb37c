"""Drives a running `serve` with azure-storage 0.20.3, the last Python client that speaks Atom.

    python serve_atom_legacy.py HOST:PORT

It signs with the development account's key (Shared Key, the Date header, version 2014-02-14),
sends no Accept header and Atom entry bodies, and reads Atom feeds: the server must answer it in
Atom. Prints what it read as JSON for the Swift test, and the DateTime texts the server sent (seen
through the SDK's own filter hook, `with_filter`): the app parses those texts, not the SDK's values.
"""

import json
import re
import sys
from datetime import datetime

from azure.storage import DEV_ACCOUNT_KEY, DEV_ACCOUNT_NAME
from azure.storage.table import Entity, EntityProperty, TableService

host = sys.argv[1]
served = []


def record(request, send):
    """Keeps every response body the SDK receives."""
    response = send(request)
    served.append(response.body.decode("utf-8") if isinstance(response.body, bytes) else response.body or "")
    return response


service = TableService(account_name=DEV_ACCOUNT_NAME, account_key=DEV_ACCOUNT_KEY, protocol="http", dev_host=host).with_filter(record)
service.use_local_storage = True
service.create_table("legacy")
service.insert_entity("legacy", {"PartitionKey": "p", "RowKey": "1", "Name": "O'Brien & <Co>", "Count": 3,
                                 "Big": EntityProperty("Edm.Int64", 2**40), "When": datetime(2026, 7, 1, 4, 34)})
service.insert_entity("legacy", {"PartitionKey": "p", "RowKey": "2", "Name": "second"})
service.merge_entity("legacy", "p", "2", {"Extra": True})
served.clear()
got = service.get_entity("legacy", "p", "1")
served_get = list(served)
served.clear()
rows = service.query_entities("legacy", "PartitionKey eq 'p'")
served_query = list(served)


def when_texts(bodies):
    return [m for body in bodies for m in re.findall(r"<d:When m:type=\"Edm.DateTime\">([^<]*)</d:When>", body)]


print(json.dumps({
    "tables": [t.name for t in service.query_tables()],
    "one": {"Name": got.Name, "Count": got.Count, "Big": getattr(got.Big, "value", got.Big), "When": got.When.isoformat()},
    "rows": [[row.RowKey, getattr(row, "Name", None), getattr(row, "Extra", None)] for row in rows],
    "servedWhen": {"get": when_texts(served_get), "query": when_texts(served_query)},
}))
