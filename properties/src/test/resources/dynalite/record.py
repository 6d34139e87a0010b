#!/usr/bin/env python3
"""Records dynalite's answer to each request of DynaliteRecordedAnswersTest, one JSON line a request.

dynalite (https://github.com/mhart/dynalite) is a DynamoDB implementation whose validation was written from
DynamoDB's own answers (its tests run against DynamoDB with REMOTE set). Its answers are outside evidence for
Stillpoint's rules: nobody here wrote them. To record again (dynalite 4.0.0, Node.js 20):

    npm install dynalite@4.0.0 && node node_modules/dynalite/cli.js --port 4567 --createTableMs 0 --deleteTableMs 0 &
    python3 record.py > recorded-answers.jsonl

Each line: {"name", "op", "body" (the request as DynamoDB's wire JSON), "verdict" ("ok" or dynalite's error
type), "message"}. Requests are single faults on a valid base, so each answer speaks of one rule.
"""
import base64, copy, json, sys, urllib.request

URL = "http://localhost:4567"


def call(target, body):
    req = urllib.request.Request(URL, data=json.dumps(body).encode(), method="POST", headers={
        "X-Amz-Target": "DynamoDB_20120810." + target, "Content-Type": "application/x-amz-json-1.0",
        "Authorization": "AWS4-HMAC-SHA256 Credential=a/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=x",
        "X-Amz-Date": "20260101T000000Z"})
    try:
        with urllib.request.urlopen(req) as r:
            return "ok", json.loads(r.read() or b"{}")
    except urllib.error.HTTPError as e:
        b = json.loads(e.read())
        return b.get("__type", "?").split("#")[-1], b.get("message") or b.get("Message")


def emit(name, op, body):
    verdict, message = call(op, body)
    message = None if verdict == "ok" else message
    if op == "CreateTable" and verdict == "ok":
        call("DeleteTable", {"TableName": body["TableName"]})
    print(json.dumps({"name": name, "op": op, "body": body, "verdict": verdict, "message": message}))


TABLE = "recorded"  # pk S, sk N; GSI by_gk (gk S, gb B); LSI by_lk (pk, lk N)
call("CreateTable", {"TableName": TABLE, "BillingMode": "PAY_PER_REQUEST",
    "AttributeDefinitions": [{"AttributeName": n, "AttributeType": t} for n, t in
                             [("pk", "S"), ("sk", "N"), ("gk", "S"), ("gb", "B"), ("lk", "N")]],
    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
    "GlobalSecondaryIndexes": [{"IndexName": "by_gk", "Projection": {"ProjectionType": "ALL"},
        "KeySchema": [{"AttributeName": "gk", "KeyType": "HASH"}, {"AttributeName": "gb", "KeyType": "RANGE"}]}],
    "LocalSecondaryIndexes": [{"IndexName": "by_lk", "Projection": {"ProjectionType": "ALL"},
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "lk", "KeyType": "RANGE"}]}]})

import time
for _ in range(100):
    if call("DescribeTable", {"TableName": TABLE})[1].get("Table", {}).get("TableStatus") == "ACTIVE":
        break
    time.sleep(0.05)

NUMBERS = ["1", "0", "-0", "0.0", "00", "007", "1.", ".1", "+1", "-1", "1e5", "1E+5", "1e-5", "1e", "e1", "1_0", " 1", "1 ",
           "", "-", ".", "1..2", "1e5.5", "0e0", "0E-200", "1e-130", "1e-131", "9.9999999999999999999999999999999999999e125",
           "1e126", "10e125", "12345678901234567890123456789012345678", "123456789012345678901234567890123456789",
           "1234567890123456789012345678901234567800", "1.0000000000000000000000000000000000001",
           "1.00000000000000000000000000000000000001", "NaN", "Infinity", "0x1f", "1e+", "--1", "1e-129",
           "99999999999999999999999999999999999999e88", "99999999999999999999999999999999999999e89", "\u0661"]
BINARIES = ["", "AA==", "AA=", "AA", "A===", "QR==", "AAE=", "-_8=", "+/8=", " AA==", "YWJj", "YWJ", "Y", "===="]
i = 0


def put(name, extra, key=None):
    global i
    i += 1
    item = dict(key or {"pk": {"S": "p%d" % i}, "sk": {"N": "1"}}, **extra)
    emit(name, "PutItem", {"TableName": TABLE, "Item": item})


for n in NUMBERS:
    put("N %r" % n, {"v": {"N": n}})
    put("sort key N %r" % n, {}, {"pk": {"S": "k%d" % len(n)}, "sk": {"N": n}})
for b in BINARIES:
    put("B %r" % b, {"v": {"B": b}})
for s in ["", "a", "\ud83d\ude00", "\u0000"]:
    put("S %r" % s, {"v": {"S": s}})
for name, v in [("SS empty", {"SS": []}), ("SS duplicate", {"SS": ["a", "a"]}), ("SS holding empty", {"SS": [""]}),
                ("NS empty", {"NS": []}), ("NS 1 and 1.0", {"NS": ["1", "1.0"]}), ("NS 1e5 and 100000", {"NS": ["1e5", "100000"]}),
                ("NS -0 and 0", {"NS": ["-0", "0"]}), ("NS bad member", {"NS": ["1", "x"]}), ("BS empty", {"BS": []}),
                ("BS duplicate", {"BS": ["AA==", "AA=="]}), ("BS holding empty", {"BS": [""]}), ("L empty", {"L": []}),
                ("M empty", {"M": {}}), ("NULL true", {"NULL": True}), ("BOOL false", {"BOOL": False}),
                ("SS empty inside L", {"L": [{"SS": []}]}), ("NS empty inside M", {"M": {"a": {"NS": []}}})]:
    put(name, {"v": v})
for name in ["a", "x" * 255, "x" * 256, "\u00e9" * 128, "a.b", "#x", ":y", "a b"]:
    put("attribute name of %d characters %r" % (len(name), name[:8]), {name: {"S": "v"}})
put("attribute name empty", {"": {"S": "v"}})
put("map key empty", {"v": {"M": {"": {"S": "x"}}}})
for name, key in [("pk 2048 bytes", "x" * 2048), ("pk 2049 bytes", "x" * 2049), ("pk 1024 two-byte characters", "\u00e9" * 1024),
                  ("pk 1025 two-byte characters", "\u00e9" * 1025), ("pk empty", "")]:
    put(name, {}, {"pk": {"S": key}, "sk": {"N": "1"}})
put("pk of type N", {}, {"pk": {"N": "1"}, "sk": {"N": "1"}})
put("sk of type S", {}, {"pk": {"S": "a"}, "sk": {"S": "1"}})
put("sk missing", {}, {"pk": {"S": "a"}})
for name, extra in [("gk and gb sound", {"gk": {"S": "g"}, "gb": {"B": "AA=="}}), ("gk alone", {"gk": {"S": "g"}}),
                    ("gb alone", {"gb": {"B": "AA=="}}), ("gk of type N", {"gk": {"N": "1"}}),
                    ("gb of type S, gk absent", {"gb": {"S": "x"}}), ("gb of type S, gk present", {"gk": {"S": "g"}, "gb": {"S": "x"}}),
                    ("gk empty", {"gk": {"S": ""}}), ("gb empty, gk present", {"gk": {"S": "g"}, "gb": {"B": ""}}),
                    ("gk 2049 bytes", {"gk": {"S": "g" * 2049}}),
                    ("gb 1025 bytes, gk present", {"gk": {"S": "g"}, "gb": {"B": base64.b64encode(b"x" * 1025).decode()}}),
                    ("lk of type S", {"lk": {"S": "1"}}), ("lk sound", {"lk": {"N": "2"}}), ("gk NULL", {"gk": {"NULL": True}})]:
    put(name, extra)


def nested(depth):
    v = {"S": "x"}
    for _ in range(depth):
        v = {"L": [v]}
    return v


put("a scalar at level 32", {"v": nested(31)})
put("a scalar at level 33", {"v": nested(32)})

KEY = lambda pk="a", sk="1", **kw: dict({"pk": {"S": pk}, "sk": {"N": sk}}, **kw)
P = lambda pk, sk="1", **kw: {"PutRequest": {"Item": KEY(pk, sk, **kw)}}
D = lambda pk, sk="1", **kw: {"DeleteRequest": {"Key": KEY(pk, sk, **kw)}}
for name, reqs in [("batch of 25 puts", [P("b%d" % j) for j in range(25)]), ("batch of 26 puts", [P("b%d" % j) for j in range(26)]),
                   ("batch empty", []), ("batch put put same key", [P("x"), P("x")]), ("batch put delete same key", [P("x"), D("x")]),
                   ("batch delete delete same key", [D("x"), D("x")]), ("batch same key 1 and 1.0", [P("x", "1"), P("x", "1.0")]),
                   ("batch same key 1 and 10E-1", [P("x", "1"), D("x", "10E-1")]), ("batch same pk other sk", [P("x", "1"), P("x", "2")]),
                   ("batch one bad item", [P("a"), P("b", v={"SS": []})]), ("batch delete extra attribute", [D("a", v={"S": "x"})]),
                   ("batch delete sk missing", [{"DeleteRequest": {"Key": {"pk": {"S": "a"}}}}]),
                   ("batch delete sk of type S", [{"DeleteRequest": {"Key": {"pk": {"S": "a"}, "sk": {"S": "1"}}}}]),
                   ("batch delete pk empty", [D("")]), ("batch put sk missing", [{"PutRequest": {"Item": {"pk": {"S": "a"}}}}]),
                   ("batch put gk of type N", [P("a", gk={"N": "1"})]), ("batch put gb of type S, gk absent", [P("a", gb={"S": "1"})])]:
    emit(name, "BatchWriteItem", {"RequestItems": {TABLE: reqs}})
for name, key in [("key sound", KEY()), ("key extra attribute", KEY(v={"S": "x"})), ("key sk missing", {"pk": {"S": "a"}}),
                  ("key sk of type S", {"pk": {"S": "a"}, "sk": {"S": "1"}}), ("key pk empty", KEY("")),
                  ("key sk 1.0", KEY(sk="1.0")), ("key sk 1e200", KEY(sk="1e200")), ("key of an index attribute only", {"gk": {"S": "a"}}),
                  ("key pk 2049 bytes", KEY("x" * 2049)), ("key pk 1025 two-byte characters", KEY("\u00e9" * 1025))]:
    emit("GetItem " + name, "GetItem", {"TableName": TABLE, "Key": key})
    emit("DeleteItem " + name, "DeleteItem", {"TableName": TABLE, "Key": key})


def table(n):
    return {"TableName": "created_%d" % n, "BillingMode": "PAY_PER_REQUEST",
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "N"},
                                     {"AttributeName": "gk", "AttributeType": "S"}, {"AttributeName": "lk", "AttributeType": "B"}],
            "GlobalSecondaryIndexes": [{"IndexName": "gsi1", "KeySchema": [{"AttributeName": "gk", "KeyType": "HASH"}],
                                        "Projection": {"ProjectionType": "ALL"}}],
            "LocalSecondaryIndexes": [{"IndexName": "lsi1", "Projection": {"ProjectionType": "ALL"},
                                       "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "lk", "KeyType": "RANGE"}]}]}


def ks(h, r=None):
    return [{"AttributeName": h, "KeyType": "HASH"}] + ([{"AttributeName": r, "KeyType": "RANGE"}] if r else [])


def drop_definition(b, name):
    b["AttributeDefinitions"] = [d for d in b["AttributeDefinitions"] if d["AttributeName"] != name]


def more(kind, count, make):
    return lambda b: b[kind].extend(make(j) for j in range(count))


def include(names):
    return {"ProjectionType": "INCLUDE", "NonKeyAttributes": names}


def gsi_projection(p):
    return lambda b: b["GlobalSecondaryIndexes"][0].update(Projection=p)


def key_name(name):
    def f(b):
        b["KeySchema"][0]["AttributeName"] = name
        b["LocalSecondaryIndexes"][0]["KeySchema"][0]["AttributeName"] = name
        b["AttributeDefinitions"][0]["AttributeName"] = name
    return f


EDITS = [("valid", lambda b: None)]
for tn in ["abc", "ab", "t" * 255, "t" * 256, "a b", "\u00e9\u00e9\u00e9"]:
    EDITS.append(("table name of %d characters %r" % (len(tn), tn[:4]), lambda b, tn=tn: b.update(TableName=tn + "" if len(tn) > 3 else tn)))
for name in ["abc", "ab", "i" * 255, "i" * 256, "a.b-c_D9", "a b"]:
    EDITS.append(("index name of %d characters %r" % (len(name), name[:4]), lambda b, n=name: b["GlobalSecondaryIndexes"][0].update(IndexName=n)))
EDITS += [
    ("GSI on the table's key", lambda b: (b["GlobalSecondaryIndexes"][0].update(KeySchema=ks("pk", "sk")), drop_definition(b, "gk"))),
    ("GSI hash and range one attribute", lambda b: b["GlobalSecondaryIndexes"][0].update(KeySchema=ks("gk", "gk"))),
    ("LSI of another partition key", lambda b: b["LocalSecondaryIndexes"][0].update(KeySchema=ks("gk", "lk"))),
    ("LSI on the table's sort key", lambda b: (b["LocalSecondaryIndexes"][0].update(KeySchema=ks("pk", "sk")), drop_definition(b, "lk"))),
    ("LSI without a sort key", lambda b: (b["LocalSecondaryIndexes"][0].update(KeySchema=ks("pk")), drop_definition(b, "lk"))),
    ("LSI on a table without a sort key", lambda b: (b.update(KeySchema=ks("pk")), drop_definition(b, "sk"))),
    ("GSI and LSI of one name", lambda b: b["LocalSecondaryIndexes"][0].update(IndexName="gsi1")),
    ("two GSIs of one name", lambda b: b["GlobalSecondaryIndexes"].append(copy.deepcopy(b["GlobalSecondaryIndexes"][0]))),
    ("20 GSIs", more("GlobalSecondaryIndexes", 19, lambda j: {"IndexName": "g%03d" % j, "KeySchema": ks("gk"), "Projection": {"ProjectionType": "ALL"}})),
    ("21 GSIs", more("GlobalSecondaryIndexes", 20, lambda j: {"IndexName": "g%03d" % j, "KeySchema": ks("gk"), "Projection": {"ProjectionType": "ALL"}})),
    ("5 LSIs", more("LocalSecondaryIndexes", 4, lambda j: {"IndexName": "l%03d" % j, "KeySchema": ks("pk", "lk"), "Projection": {"ProjectionType": "ALL"}})),
    ("6 LSIs", more("LocalSecondaryIndexes", 5, lambda j: {"IndexName": "l%03d" % j, "KeySchema": ks("pk", "lk"), "Projection": {"ProjectionType": "ALL"}})),
    ("an unused attribute definition", lambda b: b["AttributeDefinitions"].append({"AttributeName": "zz", "AttributeType": "S"})),
    ("a key attribute without a definition", lambda b: b["AttributeDefinitions"].pop()),
    ("an attribute defined twice", lambda b: b["AttributeDefinitions"].append({"AttributeName": "pk", "AttributeType": "S"})),
    ("KEYS_ONLY naming attributes", gsi_projection({"ProjectionType": "KEYS_ONLY", "NonKeyAttributes": ["a"]})),
    ("ALL naming attributes", gsi_projection({"ProjectionType": "ALL", "NonKeyAttributes": ["a"]})),
    ("INCLUDE of a key attribute", gsi_projection(include(["pk"]))),
    ("INCLUDE naming one attribute twice", gsi_projection(include(["a", "a"]))),
    ("INCLUDE of an empty name", gsi_projection(include([""]))),
    ("INCLUDE of 20 names", gsi_projection(include(["v%d" % j for j in range(20)]))),
    ("INCLUDE of 21 names", gsi_projection(include(["v%d" % j for j in range(21)]))),
    ("a key attribute name of 255 characters", key_name("k" * 255)),
    ("a key attribute name of 256 characters", key_name("k" * 256)),
    ("a key attribute name of 128 two-byte characters", key_name("\u00e9" * 128)),
]
for n, (name, edit) in enumerate(EDITS):
    b = table(n)
    edit(b)
    emit("CreateTable " + name, "CreateTable", b)
