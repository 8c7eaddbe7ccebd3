#!/usr/bin/env python3
"""dynid's layering rule, checked on the #include lines (docs/architecture.md).

Every file under include/dynid/MODULE/ and src/MODULE/ belongs to MODULE; it may include
"dynid/OTHER/..." only when OTHER is MODULE itself or one of the modules MODULE is allowed to use
below. apps/ (the command-line tool) may use every module. A module not in the table, an include of
a header that does not exist, or an include that points up or sideways fails the check with the file,
the line and the rule it breaks.

Files of the Eigen-only target dynid::core (core, spatial, model, dynamics) may not include the
model file parsers (mjcf_compat, mjcf_reader, robot, sidecar_reader, urdf_reader, urdf_writer), which need
urdfdom, yaml-cpp, tinyxml2 and MuJoCo.

Usage: check_include_layers.py [ROOT]   (default: the repository this file is in)
"""
import pathlib
import re
import sys

# Each module with the modules it may include, bottom-up. Keep it in step with docs/architecture.md.
ALLOWED = {
    "core": [],
    "spatial": ["core"],
    "model": ["core", "spatial"],
    "dynamics": ["core", "spatial", "model"],
    "actuator": ["core", "spatial", "model"],
    "io": ["core", "spatial", "model", "dynamics"],
    "mocap": ["core", "spatial", "model", "dynamics", "io"],
    "report": ["core"],
    "ident": ["core", "spatial", "model", "dynamics"],
    "locomotion": ["core", "spatial", "model", "dynamics", "actuator"],
    "data": ["core", "spatial", "model", "dynamics", "actuator", "io", "mocap", "ident"],
    "sim": ["core", "spatial", "model", "dynamics", "actuator", "io"],
    "scenarios": ["core", "spatial", "model", "dynamics", "io", "mocap", "ident", "locomotion", "data", "sim",
                  "actuator"],
    "pipeline": ["core", "spatial", "model", "dynamics", "io", "mocap", "report", "ident", "locomotion", "data",
                 "sim", "scenarios", "actuator"],
}
# dynid::core (CMakeLists.txt) is these modules without the model file parsers: nothing else in them
# may include a parser, or a dynamics-only program would need urdfdom, yaml-cpp and tinyxml2.
CORE_TARGET_MODULES = {"core", "spatial", "model", "dynamics", "actuator"}
MODEL_PARSERS = {"mjcf_compat", "mjcf_reader", "robot", "sidecar_reader", "urdf_reader", "urdf_writer"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"dynid/([a-z_]+)/([^"]+)"')


def module_of(root: pathlib.Path, path: pathlib.Path):
    rel = path.relative_to(root).parts
    if rel[:2] == ("include", "dynid") and len(rel) > 3:
        return rel[2]
    if rel[0] == "src" and len(rel) > 2:
        return rel[1]
    return None


def check(root: pathlib.Path):
    problems = []
    files = sorted(list((root / "include" / "dynid").rglob("*.hpp")) + list((root / "src").rglob("*.[ch]pp")))
    for path in files:
        module = module_of(root, path)
        rel = path.relative_to(root)
        if module not in ALLOWED:
            problems.append(f"{rel}: module '{module}' is not in the layer table (tests/architecture/"
                            "check_include_layers.py, docs/architecture.md)")
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            m = INCLUDE.match(line)
            if not m:
                continue
            target, header = m.group(1), m.group(2)
            if not (root / "include" / "dynid" / target / header).is_file():
                problems.append(f"{rel}:{number}: includes dynid/{target}/{header}, which does not exist")
            elif target != module and target not in ALLOWED[module]:
                problems.append(f"{rel}:{number}: module '{module}' includes dynid/{target}/{header}; "
                                f"'{module}' may use only {', '.join(ALLOWED[module]) or 'no other module'}")
            elif (module in CORE_TARGET_MODULES and path.stem not in MODEL_PARSERS and target == "model"
                  and pathlib.Path(header).stem in MODEL_PARSERS):
                problems.append(f"{rel}:{number}: includes the file parser dynid/model/{header}, which is not "
                                "in dynid::core (only model/mjcf_compat, mjcf_reader, robot, sidecar_reader, urdf_reader, urdf_writer may)")
    return problems, len(files)


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2])
    problems, count = check(root)
    for p in problems:
        print(p)
    if problems:
        print(f"include layers: {len(problems)} violation(s) in {count} files")
        return 1
    print(f"include layers: {count} files, every include points down")
    return 0


if __name__ == "__main__":
    sys.exit(main())
