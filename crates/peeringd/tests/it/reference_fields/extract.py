"""Lists the fields of Peering Manager's full API serializers at a tag, as JSON.

Reads every `serializers.py` and `serializers/*.py` of the tag through `git show`, takes each
class whose name ends in `Serializer`, does not start with `Nested` and whose inner `Meta`
has a literal `fields` list, and prints {"<app>.<model>": [field, ...]} (model lower-cased).
"""
import ast, json, subprocess, sys

repo, tag = sys.argv[1], sys.argv[2]
names = subprocess.run(["git", "-C", repo, "ls-tree", "-r", "--name-only", tag],
                       check=True, capture_output=True, text=True).stdout.split()
paths = [p for p in names if "/api/serializers" in p and p.endswith(".py")
         and not p.startswith("peering_manager/") and "/tests/" not in p]
out = {}
for path in sorted(paths):
    app = path.split("/")[0]
    source = subprocess.run(["git", "-C", repo, "show", f"{tag}:{path}"],
                            check=True, capture_output=True, text=True).stdout
    for node in ast.parse(source).body:
        if not isinstance(node, ast.ClassDef) or node.name.startswith("Nested"):
            continue
        for meta in node.body:
            if not (isinstance(meta, ast.ClassDef) and meta.name == "Meta"):
                continue
            model = fields = None
            for stmt in meta.body:
                if isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name):
                    if stmt.targets[0].id == "model":
                        model = stmt.value.id
                    elif stmt.targets[0].id == "fields" and isinstance(stmt.value, (ast.List, ast.Tuple)):
                        fields = [e.value for e in stmt.value.elts]
            if model and fields:
                out[f"{app}.{model.lower()}"] = fields
json.dump(dict(sorted(out.items())), sys.stdout, indent=2)
print()
