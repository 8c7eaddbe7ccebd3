#!/usr/bin/env python3
"""The AVX2 + FMA fold kernel's object defines nothing the rest of dynid could link to by mistake.

src/ident/householder_kernel_avx2.cpp is the one file compiled with -mavx2 -mfma. Inline functions
and template instances are emitted in every object that uses them and the linker keeps one copy; if
that object emitted, say, an Eigen or std:: instance that portable code also uses, the linker could
keep the AVX2 copy and a CPU without AVX2 would crash in portable code. The file therefore renames
Eigen's namespace and includes no dynid header. This check reads the object's defined symbols
(`nm`) and fails on any global or weak one other than the kernel's entry point and those whose
mangled name involves the renamed namespace (its functions, or a template instance with one of its
types, neither of which any other object can define).

Usage: check_avx2_kernel_symbols.py OBJECT_FILES...   (the dynid_ident objects; the kernel's is picked)
"""
import subprocess
import sys

RENAMED = "dynid_eigen_avx2_fma"
ALLOWED_NAMES = {"DW.ref.__gxx_personality_v0", "_ZN5dynid6detail34householder_triangularize_avx2_fmaEPdlllS1_"}


def main(argv):
    given = [path for a in argv[1:] for path in a.split(";")]  # CMake passes the object list as one argument
    objects = [a for a in given if a.endswith("householder_kernel_avx2.cpp.o")]
    if not objects:
        print("check_avx2_kernel_symbols: no householder_kernel_avx2.cpp.o among the objects given")
        return 1
    problems = []
    for obj in objects:
        out = subprocess.run(["nm", "--defined-only", obj], check=True, capture_output=True, text=True).stdout
        for line in out.splitlines():
            parts = line.split(maxsplit=2)
            if len(parts) < 3:
                continue
            kind, name = parts[1], parts[2]
            if kind.islower() and kind not in "uvw":  # local symbols cannot be picked by other objects
                continue
            if name in ALLOWED_NAMES or RENAMED in name:
                continue
            problems.append(f"{obj}: {kind} {name}")
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} symbol(s) of the AVX2 kernel's object could stand in for portable code")
        return 1
    print(f"AVX2 kernel symbols: {len(objects)} object(s), nothing outside the renamed Eigen namespace")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
