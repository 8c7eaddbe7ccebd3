#!/usr/bin/env python3
"""Generate dynid's bundled robot models: models/<stem>.urdf and models/<stem>.yaml.

Run from the repository root:

    python3 tools/generate_models.py

Standard library only and deterministic: the same source always writes byte-identical files,
so a diff of models/ after a change here shows exactly what the change did.

How a robot is described here, and why
--------------------------------------
Every robot is designed in its zero pose (all joints at 0), in world coordinates (x forward,
y left, z up, metres), standing with its soles on z = 0.  Joint positions, centres of mass,
geometry centres, markers and sensor frames are all given in that one frame, which makes a
marker set or a sensor layout readable at a glance and lets the standing checks (soles flat,
COM over the feet) hold by construction.  The writer then converts everything into URDF's
parent-relative form.  Most link frames are parallel to the world frame at q = 0; a few are
deliberately rotated (`frame_rpy`) so that the parsers and dynamics that read these files are
exercised on joint origins with a rotation, and a few inertias are written either with a
rotated inertial frame or as a full tensor with products of inertia.

Inertias are those of a solid primitive (box, cylinder, sphere) of the link's mass, centred at
its centre of mass, so every link is physically consistent by construction: positive mass,
positive principal moments that satisfy the triangle inequality strictly.

The models are "nominal" (CAD-like) models.  The simulator derives the "true" robots from them
(heavier, cables, batteries); nothing here knows about that.
"""

import math
import os
import sys

# --------------------------------------------------------------------------------------------
# Small rotation helpers (3x3 matrices as nested lists; no numpy by design).
# --------------------------------------------------------------------------------------------


def rot_x(a):
    c, s = math.cos(a), math.sin(a)
    return [[1, 0, 0], [0, c, -s], [0, s, c]]


def rot_y(a):
    c, s = math.cos(a), math.sin(a)
    return [[c, 0, s], [0, 1, 0], [-s, 0, c]]


def rot_z(a):
    c, s = math.cos(a), math.sin(a)
    return [[c, -s, 0], [s, c, 0], [0, 0, 1]]


def matmul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)] for i in range(3)]


def transpose(a):
    return [[a[j][i] for j in range(3)] for i in range(3)]


def matvec(a, v):
    return [sum(a[i][k] * v[k] for k in range(3)) for i in range(3)]


def sub(a, b):
    return [a[i] - b[i] for i in range(3)]


def add(a, b):
    return [a[i] + b[i] for i in range(3)]


def rpy_matrix(rpy):
    # URDF convention: fixed-axis roll about x, then pitch about y, then yaw about z.
    r, p, y = rpy
    return matmul(rot_z(y), matmul(rot_y(p), rot_x(r)))


def matrix_rpy(m):
    pitch = math.atan2(-m[2][0], math.hypot(m[0][0], m[1][0]))
    if abs(math.cos(pitch)) < 1e-9:  # gimbal lock: put everything into yaw
        return [0.0, pitch, math.atan2(-m[0][1], m[1][1])]
    return [math.atan2(m[2][1], m[2][2]), pitch, math.atan2(m[1][0], m[0][0])]


def normalized(v):
    n = math.sqrt(sum(c * c for c in v))
    return [c / n for c in v]


HALF_PI = math.pi / 2

# --------------------------------------------------------------------------------------------
# Number formatting.  Nine significant digits keep inertias consistent after rounding and make
# the files stable across platforms; tiny residues of trigonometry are snapped to zero so that
# an axis computed as R^T * (0, 1, 0) prints as "0 1 0".
# --------------------------------------------------------------------------------------------


def num(x, digits=9):
    if abs(x) < 1e-12:
        return "0"
    s = "%.*g" % (digits, x)
    if "e" in s:
        mantissa, exponent = s.split("e")
        if "." not in mantissa:
            mantissa += ".0"  # YAML 1.1 readers need a dot to see a float
        s = mantissa + "e" + exponent
    return s


def vec(v, digits=9):
    return " ".join(num(c, digits) for c in v)


def yaml_list(v, digits=9):
    return "[" + ", ".join(num(c, digits) for c in v) + "]"


# --------------------------------------------------------------------------------------------
# Geometry primitives.  `at` is the primitive's centre relative to the link origin and `rpy` its
# orientation, both in world axes at q = 0.  URDF cylinders run along their local z.
# --------------------------------------------------------------------------------------------


class Shape:
    def __init__(self, kind, dims, at=(0, 0, 0), rpy=(0, 0, 0), collide=True, color="grey"):
        self.kind, self.dims = kind, tuple(dims)
        self.at, self.rpy = list(at), list(rpy)
        self.collide, self.color = collide, color

    def principal_moments(self, mass):
        """Solid-body moments about the centroid, in the primitive's own axes."""
        if self.kind == "box":
            x, y, z = self.dims
            return [mass * (y * y + z * z) / 12, mass * (x * x + z * z) / 12, mass * (x * x + y * y) / 12]
        if self.kind == "cylinder":
            r, h = self.dims
            side = mass * (3 * r * r + h * h) / 12
            return [side, side, mass * r * r / 2]
        r = self.dims[0]
        return [2 * mass * r * r / 5] * 3

    def half_extents_world(self):
        """Half extents of the world-axis-aligned bounding box (for the height summary)."""
        if self.kind == "box":
            h = [d / 2 for d in self.dims]
        elif self.kind == "cylinder":
            h = [self.dims[0], self.dims[0], self.dims[1] / 2]
        else:
            h = [self.dims[0]] * 3
        m = rpy_matrix(self.rpy)
        return [sum(abs(m[i][k]) * h[k] for k in range(3)) for i in range(3)]


def box(sx, sy, sz, **kw):
    return Shape("box", (sx, sy, sz), **kw)


def cyl(radius, length, axis="z", **kw):
    # A cylinder along world x or y is a z-cylinder turned by 90 degrees.
    kw.setdefault("rpy", {"x": (0, HALF_PI, 0), "y": (HALF_PI, 0, 0), "z": (0, 0, 0)}[axis])
    return Shape("cylinder", (radius, length), **kw)


def sph(radius, **kw):
    return Shape("sphere", (radius,), **kw)


class Mass:
    """A link's mass: value, centre of mass (offset from the link origin, world axes) and the
    solid whose inertia it has (centred at the COM, principal axes along the solid's `rpy`).

    full=False writes the principal moments with a rotated <inertial> origin when the solid is
    turned; full=True writes the same tensor in link axes, with products of inertia.  Both
    styles appear in the bundled robots so that readers of either are tested."""

    def __init__(self, value, com, solid, full=False):
        self.value, self.com, self.solid, self.full = value, list(com), solid, full


# --------------------------------------------------------------------------------------------
# Robot description and writers.
# --------------------------------------------------------------------------------------------


class Link:
    def __init__(self, name, origin, rot, mass, geoms):
        self.name, self.origin, self.rot, self.mass, self.geoms = name, list(origin), rot, mass, geoms


class Joint:
    def __init__(self, name, jtype, parent, child, axis, limit, actuator):
        self.name, self.type, self.parent, self.child = name, jtype, parent, child
        self.axis, self.limit, self.actuator = axis, limit, actuator


class Robot:
    def __init__(self, name, floating=True):
        self.name, self.floating = name, floating
        self.links, self.link_order, self.joints = {}, [], []
        self.actuator_classes = {}
        # sidecar content; frames are kept in world coordinates until written
        self.base_link = None
        self.imu = None
        self.accelerometers, self.ft_sensors, self.contacts, self.markers = [], [], [], []
        self.joint_torque_sensors = "none"
        self.joint_torque_side = None  # "motor" for torques from motor currents; None: link side (default)

    # --- building -----------------------------------------------------------------------------

    def add(self, name, parent=None, joint=None, jtype="revolute", at=(0, 0, 0), axis=None,
            limit=None, act=None, frame_rpy=(0, 0, 0), mass=None, geoms=()):
        """Add link `name`, attached to `parent` by `joint` located at world point `at`.

        axis: joint axis in world axes at q = 0.  limit: (lower, upper) in rad.
        act: (actuator class, effort limit in N m) for a moving joint.
        frame_rpy: orientation of the link frame in the world at q = 0."""
        assert name not in self.links, name
        link = Link(name, at, rpy_matrix(frame_rpy), mass, list(geoms))
        self.links[name] = link
        self.link_order.append(name)
        if parent is None:
            return link
        assert parent in self.links, parent
        if jtype == "fixed":
            assert axis is None and limit is None and act is None, joint
        else:
            assert axis is not None and limit is not None and act is not None, joint
            axis = normalized(axis)
        self.joints.append(Joint(joint, jtype, parent, name, axis, limit, act))
        return link

    def actuator_class(self, name, **fields):
        self.actuator_classes[name] = fields

    def frame(self, name, link, at, rpy=(0, 0, 0)):
        assert link in self.links, (name, link)
        return {"name": name, "link": link, "at": list(at), "rpy": list(rpy)}

    # --- derived quantities -------------------------------------------------------------------

    def local_position(self, link, world_point):
        ln = self.links[link]
        return matvec(transpose(ln.rot), sub(world_point, ln.origin))

    def local_rpy(self, link, world_rpy):
        return matrix_rpy(matmul(transpose(self.links[link].rot), rpy_matrix(world_rpy)))

    def total_mass(self):
        return sum(l.mass.value for l in self.links.values() if l.mass)

    def dof(self):
        return sum(1 for j in self.joints if j.type != "fixed")

    def com_world(self):
        m = self.total_mass()
        acc = [0.0, 0.0, 0.0]
        for l in self.links.values():
            if l.mass:
                acc = add(acc, [l.mass.value * c for c in add(l.origin, l.mass.com)])
        return [c / m for c in acc]

    def height(self):
        top = -1e9
        for l in self.links.values():
            for g in l.geoms:
                top = max(top, l.origin[2] + g.at[2] + g.half_extents_world()[2])
        return top

    def velocity_limit(self, cls):
        a = self.actuator_classes[cls]
        if "velocity_limit" in a:
            return a["velocity_limit"]
        # 90 % of the no-load speed at the supply voltage: what the motor can actually reach.
        no_load = a["supply_voltage"] / (a["torque_constant"] * a["gear_ratio"])
        return round(0.9 * no_load, 2)

    def check_actuator(self, joint):
        cls, effort = joint.actuator
        a = self.actuator_classes[cls]
        if "torque_constant" in a:
            stall = a["supply_voltage"] * a["gear_ratio"] * a["torque_constant"] / a["resistance"]
            assert effort <= stall + 1e-9, (joint.name, effort, stall)

    # --- URDF -----------------------------------------------------------------------------------

    def urdf(self):
        out = ['<?xml version="1.0"?>',
               "<!-- Generated by tools/generate_models.py; edit the generator, not this file. -->",
               '<robot name="%s">' % self.name]
        colors = {"grey": "0.6 0.6 0.62 1", "dark": "0.2 0.2 0.22 1", "blue": "0.2 0.35 0.7 1",
                  "orange": "0.9 0.5 0.1 1", "black": "0.05 0.05 0.05 1"}
        for c in sorted(colors):
            out.append('  <material name="%s"><color rgba="%s"/></material>' % (c, colors[c]))
        for name in self.link_order:
            out.extend(self._urdf_link(self.links[name]))
        for j in self.joints:
            out.extend(self._urdf_joint(j))
        out.append("</robot>")
        return "\n".join(out) + "\n"

    def _urdf_link(self, link):
        rt = transpose(link.rot)
        out = ['  <link name="%s">' % link.name]
        if link.mass:
            m = link.mass
            com = matvec(rt, m.com)
            rot = matmul(rt, rpy_matrix(m.solid.rpy))  # principal axes in link axes
            d = m.solid.principal_moments(m.value)
            if m.full:
                t = [[sum(rot[i][k] * d[k] * rot[j][k] for k in range(3)) for j in range(3)] for i in range(3)]
                rpy = [0, 0, 0]
            else:
                t = [[d[0], 0, 0], [0, d[1], 0], [0, 0, d[2]]]
                rpy = matrix_rpy(rot)
            out += ["    <inertial>",
                    '      <origin xyz="%s" rpy="%s"/>' % (vec(com), vec(rpy, 12)),
                    '      <mass value="%s"/>' % num(m.value),
                    '      <inertia ixx="%s" ixy="%s" ixz="%s" iyy="%s" iyz="%s" izz="%s"/>'
                    % tuple(num(x) for x in (t[0][0], t[0][1], t[0][2], t[1][1], t[1][2], t[2][2])),
                    "    </inertial>"]
        for g in link.geoms:
            xyz = vec(matvec(rt, g.at))
            rpy = vec(matrix_rpy(matmul(rt, rpy_matrix(g.rpy))), 12)
            if g.kind == "box":
                geom = '<box size="%s"/>' % vec(g.dims)
            elif g.kind == "cylinder":
                geom = '<cylinder radius="%s" length="%s"/>' % (num(g.dims[0]), num(g.dims[1]))
            else:
                geom = '<sphere radius="%s"/>' % num(g.dims[0])
            origin = '<origin xyz="%s" rpy="%s"/>' % (xyz, rpy)
            out.append("    <visual>%s<geometry>%s</geometry><material name=\"%s\"/></visual>"
                       % (origin, geom, g.color))
            if g.collide:
                out.append("    <collision>%s<geometry>%s</geometry></collision>" % (origin, geom))
        out.append("  </link>")
        return out

    def _urdf_joint(self, j):
        p, c = self.links[j.parent], self.links[j.child]
        pt = transpose(p.rot)
        xyz = matvec(pt, sub(c.origin, p.origin))
        rpy = matrix_rpy(matmul(pt, c.rot))
        out = ['  <joint name="%s" type="%s">' % (j.name, j.type),
               '    <origin xyz="%s" rpy="%s"/>' % (vec(xyz), vec(rpy, 12)),
               '    <parent link="%s"/>' % j.parent,
               '    <child link="%s"/>' % j.child]
        if j.type != "fixed":
            self.check_actuator(j)
            cls, effort = j.actuator
            a = self.actuator_classes[cls]
            out.append('    <axis xyz="%s"/>' % vec(matvec(transpose(c.rot), j.axis), 12))
            out.append('    <limit lower="%s" upper="%s" effort="%s" velocity="%s"/>'
                       % (num(j.limit[0]), num(j.limit[1]), num(effort), num(self.velocity_limit(cls))))
            # Same numbers as the sidecar's actuator entry, so a reader of either agrees.
            out.append('    <dynamics damping="%s" friction="%s"/>'
                       % (num(a["damping"]), num(a["coulomb_friction"])))
        out.append("  </joint>")
        return out

    # --- sidecar YAML -----------------------------------------------------------------------------

    def _pose_lines(self, f, indent):
        pos = self.local_position(f["link"], f["at"])
        rpy = self.local_rpy(f["link"], f["rpy"])
        return ["%sposition: %s" % (indent, yaml_list(pos)), "%srpy: %s" % (indent, yaml_list(rpy, 12))]

    def sidecar(self):
        out = ["# Robot sidecar of %s.urdf (schema: docs/robot-sidecar.md)." % self.name,
               "# Generated by tools/generate_models.py; edit the generator, not this file.",
               "robot: %s" % self.name,
               "base_link: %s" % self.base_link,
               "floating_base: %s" % ("true" if self.floating else "false")]
        if self.imu:
            out += ["", "imu:", "  name: %s" % self.imu["name"], "  link: %s" % self.imu["link"]]
            out += self._pose_lines(self.imu, "  ")
        if self.accelerometers:
            out += ["", "accelerometers:"]
            for a in self.accelerometers:
                pos = yaml_list(self.local_position(a["link"], a["at"]))
                rpy = yaml_list(self.local_rpy(a["link"], a["rpy"]), 12)
                out.append("  - {name: %s, link: %s, position: %s, rpy: %s}" % (a["name"], a["link"], pos, rpy))
        if self.ft_sensors:
            out += ["", "ft_sensors:"]
            for f in self.ft_sensors:
                out += ["  - name: %s" % f["name"], "    link: %s" % f["link"]]
                out += self._pose_lines(f, "    ")
                out.append("    measures: %s" % f["measures"])
        if isinstance(self.joint_torque_sensors, str):
            out += ["", "joint_torque_sensors: %s" % self.joint_torque_sensors]
        else:
            out += ["", "joint_torque_sensors: [%s]" % ", ".join(self.joint_torque_sensors)]
        if self.joint_torque_side:
            out.append("joint_torque_side: %s" % self.joint_torque_side)
        if self.contacts:
            out += ["", "contacts:"]
            for c in self.contacts:
                out += ["  - name: %s" % c["name"], "    link: %s" % c["link"]]
                out += self._pose_lines(c, "    ")
                if "polygon" in c:
                    out.append("    polygon: [%s]" % ", ".join(yaml_list(p) for p in c["polygon"]))
                else:
                    out.append("    points: [%s]" % ", ".join(yaml_list(p) for p in c["points"]))
                out.append("    friction: %s" % num(c["friction"]))
        if self.markers:
            out += ["", "markers:"]
            for name, link, at in self.markers:
                out.append("  - {name: %s, link: %s, position: %s}"
                           % (name, link, yaml_list(self.local_position(link, at), 6)))
        moving = [j for j in self.joints if j.type != "fixed"]
        if moving:
            out += ["", "actuators:"]
            keys = ["gear_ratio", "torque_constant", "resistance", "rotor_inertia", "armature", "damping",
                    "coulomb_friction", "stribeck_friction", "stribeck_velocity", "effort_limit",
                    "velocity_limit", "p_gain", "supply_voltage"]
            for j in moving:
                cls, effort = j.actuator
                a = dict(self.actuator_classes[cls])
                if "rotor_inertia" in a:
                    a["armature"] = a["gear_ratio"] ** 2 * a["rotor_inertia"]
                a["effort_limit"] = effort
                a["velocity_limit"] = self.velocity_limit(cls)
                out.append("  - joint: %s" % j.name)
                out += ["    %s: %s" % (k, num(a[k])) for k in keys if k in a]
        return "\n".join(out) + "\n"


def side_limit(lower, upper, s):
    """Limits of a roll or yaw joint on the side s (+1 left, -1 right).  Axes are not mirrored,
    so a motion that is positive on the left (abduction, say) is negative on the right."""
    return (lower, upper) if s > 0 else (-upper, -lower)


SIDES = (("l", "L", 1), ("r", "R", -1))

# --------------------------------------------------------------------------------------------
# 1. Adult humanoid, REEM-C-like (paper 000).
# --------------------------------------------------------------------------------------------


def adult_humanoid():
    r = Robot("adult_humanoid")
    leg_markers, arm_markers = [], []
    # PAL uses brushed DC motors behind harmonic drives.  Motor data are those of 48 V Maxon
    # RE40 / RE30 / RE25 windings; gear ratios and the supply voltage are our assumptions.
    friction = dict(stribeck_velocity=0.05)
    r.actuator_class("large", gear_ratio=120, torque_constant=0.0603, resistance=1.16, rotor_inertia=1.34e-5,
                     damping=0.8, coulomb_friction=3.0, stribeck_friction=1.0, supply_voltage=48.0, **friction)
    r.actuator_class("medium", gear_ratio=100, torque_constant=0.0538, resistance=2.52, rotor_inertia=3.45e-6,
                     damping=0.4, coulomb_friction=1.5, stribeck_friction=0.5, supply_voltage=48.0, **friction)
    r.actuator_class("small", gear_ratio=100, torque_constant=0.0526, resistance=9.4, rotor_inertia=1.08e-6,
                     damping=0.1, coulomb_friction=0.4, stribeck_friction=0.15, supply_voltage=48.0, **friction)

    # Pelvis: the floating base and the heaviest body (it carries the batteries, paper 000).
    # Its inertia is that of a slightly pitched box, written with a rotated inertial frame.
    r.add("pelvis", at=(0, 0, 0.86),
          mass=Mass(10.8, (-0.01, 0, 0), box(0.20, 0.30, 0.14, rpy=(0, 0.1, 0))),
          geoms=[box(0.20, 0.30, 0.16, color="dark")])
    r.base_link = "pelvis"
    # The battery pack is its own body on a fixed joint: readers must merge it into the pelvis.
    r.add("battery", "pelvis", "battery_mount", "fixed", at=(-0.03, 0, 0.86),
          mass=Mass(2.7, (0, 0, 0), box(0.06, 0.22, 0.12)),
          geoms=[box(0.06, 0.22, 0.12, collide=False, color="orange")])
    r.add("imu_link", "pelvis", "imu_mount", "fixed", at=(0, 0, 0.88))
    r.imu = r.frame("imu", "imu_link", (0, 0, 0.88))

    for p, P, s in SIDES:
        y = 0.09 * s
        r.add(p + "_hip_yaw_link", "pelvis", p + "_hip_yaw", at=(0, y, 0.78), axis=(0, 0, 1),
              limit=side_limit(-0.6, 0.6, s), act=("medium", 80),
              mass=Mass(1.2, (0, 0, -0.03), cyl(0.05, 0.06)),
              geoms=[cyl(0.05, 0.06, at=(0, 0, -0.03), collide=False)])
        r.add(p + "_hip_roll_link", p + "_hip_yaw_link", p + "_hip_roll", at=(0, y, 0.70), axis=(1, 0, 0),
              limit=side_limit(-0.45, 0.8, s), act=("large", 160),
              mass=Mass(1.6, (0, 0, 0.02), box(0.12, 0.09, 0.09)),
              geoms=[box(0.12, 0.09, 0.09, at=(0, 0, 0.02), collide=False)])
        # Thigh: off-centre COM, femur-like tilted principal axes (inertial rpy).
        r.add(p + "_thigh", p + "_hip_roll_link", p + "_hip_pitch", at=(0, y, 0.70), axis=(0, 1, 0),
              limit=(-2.1, 0.7), act=("large", 160),
              mass=Mass(6.2, (0.01, 0, -0.13), cyl(0.065, 0.26, rpy=(0.03 * s, -0.05, 0))),
              geoms=[cyl(0.065, 0.24, at=(0, 0, -0.15), color="blue")])
        r.add(p + "_shank", p + "_thigh", p + "_knee", at=(0, y, 0.40), axis=(0, 1, 0),
              limit=(0.0, 2.4), act=("large", 200),
              mass=Mass(3.4, (0.01, 0, -0.12), cyl(0.055, 0.26)),
              geoms=[cyl(0.055, 0.22, at=(0, 0, -0.14), color="blue")])
        r.add(p + "_ankle_pitch_link", p + "_shank", p + "_ankle_pitch", at=(0, y, 0.10), axis=(0, 1, 0),
              limit=(-0.9, 0.7), act=("large", 120),
              mass=Mass(0.6, (0, 0, 0), box(0.07, 0.07, 0.07)),
              geoms=[box(0.07, 0.07, 0.07, collide=False)])
        # Foot: ankle bracket, F/T sensor, then the 0.21 x 0.14 m rubber sole.  Its inertia is
        # a slightly toed-out box, written as a full tensor (non-zero Ixy).
        r.add(p + "_foot", p + "_ankle_pitch_link", p + "_ankle_roll", at=(0, y, 0.10), axis=(1, 0, 0),
              limit=(-0.5, 0.5), act=("medium", 80),
              mass=Mass(1.3, (0.025, 0, -0.065), box(0.21, 0.13, 0.05, rpy=(0, 0, 0.05 * s)), full=True),
              geoms=[box(0.08, 0.08, 0.05, at=(0, 0, -0.03), collide=False),
                     box(0.21, 0.14, 0.04, at=(0.03, 0, -0.08), color="black")])
        r.add(p + "_sole_link", p + "_foot", p + "_sole_mount", "fixed", at=(0.03, y, 0.0))
        r.ft_sensors.append(dict(r.frame(p + "_ankle_ft", p + "_foot", (0, y, 0.045)), measures="external"))
        r.contacts.append(dict(r.frame(p + "_sole", p + "_sole_link", (0.03, y, 0.0)),
                               polygon=[[0.105, 0.07], [-0.105, 0.07], [-0.105, -0.07], [0.105, -0.07]],
                               friction=0.9))
        leg_markers += [
            (P + "THI", p + "_thigh", (0, y + 0.075 * s, 0.58)),
            (P + "THF", p + "_thigh", (0.075, y, 0.52)),
            (P + "THB", p + "_thigh", (-0.075, y, 0.60)),
            (P + "KNE", p + "_thigh", (0, y + 0.075 * s, 0.41)),
            (P + "TIB", p + "_shank", (0, y + 0.065 * s, 0.28)),
            (P + "SHF", p + "_shank", (0.065, y, 0.22)),
            (P + "ANK", p + "_shank", (0, y + 0.065 * s, 0.14)),
            (P + "HEE", p + "_foot", (-0.085, y, 0.04)),
            (P + "TOE", p + "_foot", (0.13, y, 0.05)),
            (P + "MT5", p + "_foot", (0.09, y + 0.08 * s, 0.03)),
        ]

    r.add("waist_yaw_link", "pelvis", "waist_yaw", at=(0, 0, 0.94), axis=(0, 0, 1),
          limit=(-1.0, 1.0), act=("medium", 60),
          mass=Mass(1.0, (0, 0, 0.025), cyl(0.07, 0.05)),
          geoms=[cyl(0.07, 0.05, at=(0, 0, 0.025), collide=False)])
    # Torso (computer, electronics): principal axes leaning forward, written as a full tensor.
    r.add("torso", "waist_yaw_link", "waist_pitch", at=(0, 0, 0.99), axis=(0, 1, 0),
          limit=(-0.25, 0.9), act=("large", 120),
          mass=Mass(10.3, (-0.015, 0, 0.22), box(0.22, 0.34, 0.40, rpy=(0, 0.12, 0)), full=True),
          geoms=[box(0.24, 0.36, 0.42, at=(-0.01, 0, 0.23), color="dark")])

    # Neck yaw about a forward-inclined axis: the one axis that is not along a frame axis.
    r.add("neck", "torso", "head_yaw", at=(0, 0, 1.45), axis=(0.2, 0, 1),
          limit=(-1.2, 1.2), act=("small", 10),
          mass=Mass(0.5, (0, 0, 0.035), cyl(0.035, 0.07)),
          geoms=[cyl(0.035, 0.07, at=(0, 0, 0.035), collide=False)])
    r.add("head", "neck", "head_pitch", at=(0, 0, 1.52), axis=(0, 1, 0),
          limit=(-0.5, 0.8), act=("small", 10),
          mass=Mass(1.6, (0.015, 0, 0.02), box(0.19, 0.17, 0.19)),
          geoms=[box(0.20, 0.18, 0.20, at=(0.01, 0, 0.02))])
    # Head camera: a massive body on a fixed joint whose frame is pitched down 0.3 rad.
    r.add("head_camera", "head", "head_camera_mount", "fixed", at=(0.10, 0, 1.56), frame_rpy=(0, 0.3, 0),
          mass=Mass(0.25, (0, 0, 0), box(0.03, 0.10, 0.03, rpy=(0, 0.3, 0))),
          geoms=[box(0.03, 0.10, 0.03, rpy=(0, 0.3, 0), collide=False, color="black")])

    for p, P, s in SIDES:
        y = 0.26 * s
        r.add(p + "_shoulder_pitch_link", "torso", p + "_shoulder_pitch", at=(0, 0.20 * s, 1.36), axis=(0, 1, 0),
              limit=(-2.9, 1.0), act=("medium", 60),
              mass=Mass(0.9, (0, 0.03 * s, 0), cyl(0.05, 0.06, axis="y")),
              geoms=[cyl(0.05, 0.06, axis="y", at=(0, 0.03 * s, 0), collide=False)])
        r.add(p + "_shoulder_roll_link", p + "_shoulder_pitch_link", p + "_shoulder_roll", at=(0, y, 1.36),
              axis=(1, 0, 0), limit=side_limit(-0.2, 2.8, s), act=("medium", 60),
              mass=Mass(0.9, (0, 0, -0.02), box(0.08, 0.08, 0.08)),
              geoms=[box(0.08, 0.08, 0.08, at=(0, 0, -0.02), collide=False)])
        # The upper-arm frame is turned by a quarter turn about z (x along the shoulder's
        # lateral direction), so the shoulder-yaw and elbow joint origins carry a yaw.
        r.add(p + "_upper_arm", p + "_shoulder_roll_link", p + "_shoulder_yaw", at=(0, y, 1.30), axis=(0, 0, 1),
              limit=(-1.6, 1.6), act=("medium", 40), frame_rpy=(0, 0, HALF_PI * s),
              mass=Mass(1.6, (0, 0, -0.09), cyl(0.045, 0.20)),
              geoms=[cyl(0.045, 0.18, at=(0, 0, -0.11), color="blue")])
        r.add(p + "_forearm", p + "_upper_arm", p + "_elbow", at=(0, y, 1.08), axis=(0, 1, 0),
              limit=(-2.4, 0.0), act=("medium", 50),
              mass=Mass(1.1, (0, 0, -0.10), cyl(0.04, 0.20)),
              geoms=[cyl(0.04, 0.19, at=(0, 0, -0.12), color="blue")])
        r.add(p + "_wrist_yaw_link", p + "_forearm", p + "_wrist_yaw", at=(0, y, 0.85), axis=(0, 0, 1),
              limit=(-1.8, 1.8), act=("small", 12),
              mass=Mass(0.4, (0, 0, -0.015), cyl(0.035, 0.03)),
              geoms=[cyl(0.035, 0.03, at=(0, 0, -0.015), collide=False)])
        r.add(p + "_wrist_pitch_link", p + "_wrist_yaw_link", p + "_wrist_pitch", at=(0, y, 0.82), axis=(0, 1, 0),
              limit=(-1.0, 1.0), act=("small", 12),
              mass=Mass(0.3, (0, 0, -0.01), box(0.05, 0.05, 0.05)),
              geoms=[box(0.05, 0.05, 0.05, at=(0, 0, -0.01), collide=False)])
        # Hand frame: x along the fingers (pointing down at q = 0), a common tool-frame choice;
        # the wrist-roll joint origin therefore carries a pitch of pi/2.
        r.add(p + "_hand", p + "_wrist_pitch_link", p + "_wrist_roll", at=(0, y, 0.80), axis=(0, 0, -1),
              limit=(-1.0, 1.0), act=("small", 12), frame_rpy=(0, HALF_PI, 0),
              mass=Mass(0.7, (0.01, 0, -0.08), box(0.09, 0.04, 0.15)),
              geoms=[box(0.09, 0.04, 0.15, at=(0, 0, -0.085))])
        # Wrist F/T sensor between the wrist and the hand, axes = hand frame.
        r.ft_sensors.append(dict(r.frame(p + "_wrist_ft", p + "_hand", (0, y, 0.79), (0, HALF_PI, 0)),
                                 measures="internal"))
        arm_markers += [
            (P + "SHO", p + "_shoulder_pitch_link", (0, 0.23 * s, 1.42)),
            (P + "UPA", p + "_upper_arm", (0, y + 0.055 * s, 1.22)),
            (P + "UPB", p + "_upper_arm", (-0.055, y, 1.16)),
            (P + "ELB", p + "_upper_arm", (0, y + 0.055 * s, 1.10)),
            (P + "FRA", p + "_forearm", (0, y + 0.05 * s, 1.00)),
            (P + "WRA", p + "_forearm", (0.05, y, 0.88)),
            (P + "WRB", p + "_forearm", (-0.05, y, 0.88)),
            (P + "HND", p + "_hand", (0.03, y + 0.03 * s, 0.74)),
            (P + "FIN", p + "_hand", (-0.02, y + 0.03 * s, 0.64)),
        ]

    # Marker set: 51 markers in the style of a lab's full-body set (Plug-in-Gait-like names),
    # at least three non-collinear markers on every segment the static ID updates.
    r.markers = [
        ("LASI", "pelvis", (0.11, 0.10, 0.90)), ("RASI", "pelvis", (0.11, -0.10, 0.90)),
        ("LPSI", "pelvis", (-0.11, 0.06, 0.92)), ("RPSI", "pelvis", (-0.11, -0.06, 0.92)),
        ("C7", "torso", (-0.14, 0, 1.42)), ("T10", "torso", (-0.14, 0, 1.18)),
        ("CLAV", "torso", (0.12, 0, 1.40)), ("STRN", "torso", (0.12, 0, 1.22)),
        ("RBAK", "torso", (-0.14, -0.10, 1.30)),
        ("LFHD", "head", (0.12, 0.05, 1.60)), ("RFHD", "head", (0.12, -0.05, 1.60)),
        ("LBHD", "head", (-0.10, 0.05, 1.60)), ("RBHD", "head", (-0.10, -0.05, 1.60)),
    ] + arm_markers + leg_markers
    return r


# --------------------------------------------------------------------------------------------
# 2. Kid-size humanoid, UT-mu2-like (paper 003).
# --------------------------------------------------------------------------------------------


def kid_humanoid():
    r = Robot("kid_humanoid")
    # Small geared DC motors on a 4-cell battery (our assumption; paper 003 gives no motor data).
    r.actuator_class("leg", gear_ratio=200, torque_constant=0.0095, resistance=2.5, rotor_inertia=1.0e-7,
                     damping=0.05, coulomb_friction=0.12, stribeck_friction=0.04, stribeck_velocity=0.05,
                     supply_voltage=14.8)
    r.actuator_class("arm", gear_ratio=150, torque_constant=0.0075, resistance=5.0, rotor_inertia=5.0e-8,
                     damping=0.02, coulomb_friction=0.05, stribeck_friction=0.02, stribeck_velocity=0.05,
                     supply_voltage=14.8)

    r.add("pelvis", at=(0, 0, 0.32),
          mass=Mass(0.8, (0, 0, -0.005), box(0.09, 0.13, 0.05)),
          geoms=[box(0.09, 0.14, 0.05, color="dark")])
    r.base_link = "pelvis"
    r.imu = r.frame("imu", "pelvis", (0, 0, 0.33))
    # UT-mu2 has no waist joint: trunk and head are massive bodies on fixed joints, so the base
    # a reader builds is pelvis + torso + head (13 moving bodies with the arms locked, as in 003).
    r.add("torso", "pelvis", "torso_mount", "fixed", at=(0, 0, 0.345),
          mass=Mass(1.5, (-0.008, 0, 0.055), box(0.10, 0.13, 0.11, rpy=(0, 0.08, 0))),
          geoms=[box(0.10, 0.14, 0.115, at=(0, 0, 0.0575), color="dark")])
    r.add("head", "torso", "head_mount", "fixed", at=(0, 0, 0.46),
          mass=Mass(0.3, (0.005, 0, 0.04), sph(0.038)),
          geoms=[sph(0.04, at=(0, 0, 0.04))])

    for p, P, s in SIDES:
        y = 0.045 * s
        r.add(p + "_hip_yaw_link", "pelvis", p + "_hip_yaw", at=(0, y, 0.295), axis=(0, 0, 1),
              limit=side_limit(-0.5, 0.5, s), act=("leg", 4.0),
              mass=Mass(0.12, (0, 0, -0.01), box(0.03, 0.03, 0.02)),
              geoms=[box(0.03, 0.03, 0.02, at=(0, 0, -0.01), collide=False)])
        r.add(p + "_hip_roll_link", p + "_hip_yaw_link", p + "_hip_roll", at=(0, y, 0.26), axis=(1, 0, 0),
              limit=side_limit(-0.4, 0.7, s), act=("leg", 6.0),
              mass=Mass(0.22, (0, 0, 0.005), box(0.04, 0.04, 0.04)),
              geoms=[box(0.04, 0.04, 0.04, at=(0, 0, 0.005), collide=False)])
        r.add(p + "_thigh", p + "_hip_roll_link", p + "_hip_pitch", at=(0, y, 0.26), axis=(0, 1, 0),
              limit=(-1.8, 0.5), act=("leg", 6.0),
              mass=Mass(0.5, (0.003, 0, -0.05), box(0.045, 0.045, 0.095, rpy=(0, -0.05, 0))),
              geoms=[box(0.05, 0.05, 0.09, at=(0, 0, -0.055), color="blue")])
        r.add(p + "_shank", p + "_thigh", p + "_knee", at=(0, y, 0.15), axis=(0, 1, 0),
              limit=(0.0, 2.3), act=("leg", 6.0),
              mass=Mass(0.38, (0.002, 0, -0.05), box(0.045, 0.045, 0.09)),
              geoms=[box(0.05, 0.05, 0.08, at=(0, 0, -0.05), color="blue")])
        r.add(p + "_ankle_pitch_link", p + "_shank", p + "_ankle_pitch", at=(0, y, 0.04), axis=(0, 1, 0),
              limit=(-1.0, 1.0), act=("leg", 6.0),
              mass=Mass(0.12, (0, 0, 0), box(0.03, 0.03, 0.03)),
              geoms=[box(0.03, 0.03, 0.03, collide=False)])
        r.add(p + "_foot", p + "_ankle_pitch_link", p + "_ankle_roll", at=(0, y, 0.04), axis=(1, 0, 0),
              limit=(-0.5, 0.5), act=("leg", 4.0),
              mass=Mass(0.26, (0.008, 0, -0.025), box(0.10, 0.06, 0.02, rpy=(0, 0, -0.04 * s)), full=True),
              geoms=[box(0.03, 0.03, 0.02, at=(0, 0, -0.01), collide=False),
                     box(0.10, 0.06, 0.02, at=(0.01, 0, -0.03), color="black")])
        r.add(p + "_sole_link", p + "_foot", p + "_sole_mount", "fixed", at=(0.01, y, 0.0))
        # Paper 003 measured with a force plate; the foot F/T sensor is there so the contact-only
        # identification can also run from on-board sensing.
        r.ft_sensors.append(dict(r.frame(p + "_foot_ft", p + "_foot", (0, y, 0.02)), measures="external"))
        r.contacts.append(dict(r.frame(p + "_sole", p + "_foot", (0.01, y, 0.0)),
                               polygon=[[0.05, 0.03], [-0.05, 0.03], [-0.05, -0.03], [0.05, -0.03]],
                               friction=0.8))

    for p, P, s in SIDES:
        y = 0.095 * s
        r.add(p + "_shoulder_link", "torso", p + "_shoulder_pitch", at=(0, 0.075 * s, 0.44), axis=(0, 1, 0),
              limit=(-3.0, 1.0), act=("arm", 2.5),
              mass=Mass(0.08, (0, 0.01 * s, 0), box(0.03, 0.03, 0.03)),
              geoms=[box(0.03, 0.03, 0.03, at=(0, 0.01 * s, 0), collide=False)])
        r.add(p + "_upper_arm", p + "_shoulder_link", p + "_shoulder_roll", at=(0, y, 0.44), axis=(1, 0, 0),
              limit=side_limit(-0.2, 2.5, s), act=("arm", 2.5),
              mass=Mass(0.17, (0, 0, -0.03), box(0.03, 0.035, 0.07)),
              geoms=[box(0.03, 0.035, 0.07, at=(0, 0, -0.03), color="blue")])
        r.add(p + "_shoulder_yaw_link", p + "_upper_arm", p + "_shoulder_yaw", at=(0, y, 0.39), axis=(0, 0, 1),
              limit=(-1.6, 1.6), act=("arm", 1.5),
              mass=Mass(0.08, (0, 0, -0.015), box(0.03, 0.03, 0.03)),
              geoms=[box(0.03, 0.03, 0.03, at=(0, 0, -0.015), collide=False)])
        r.add(p + "_forearm", p + "_shoulder_yaw_link", p + "_elbow", at=(0, y, 0.37), axis=(0, 1, 0),
              limit=(-2.2, 0.0), act=("arm", 2.5),
              mass=Mass(0.12, (0, 0, -0.045), box(0.03, 0.03, 0.09)),
              geoms=[box(0.03, 0.03, 0.09, at=(0, 0, -0.05), color="blue")])

    # Paper 003 tracked the trunk with optical markers to get the base pose.
    r.markers += [
        ("LASI", "pelvis", (0.05, 0.05, 0.32)), ("RASI", "pelvis", (0.05, -0.05, 0.32)),
        ("CLAV", "torso", (0.055, 0, 0.45)), ("STRN", "torso", (0.055, 0, 0.39)),
        ("C7", "torso", (-0.055, 0, 0.45)),
    ]
    return r


# --------------------------------------------------------------------------------------------
# 3. 16-DOF biped, Sarcos-lower-body-like (paper 004).
# --------------------------------------------------------------------------------------------


def biped16():
    r = Robot("biped16")
    # Hydraulic, torque-controlled joints: no gearbox or motor constants; seal friction and
    # valve damping dominate.  Velocity limits are those of the servo valves.  The armature is
    # the actuator's reflected inertia (piston, rod, oil column, linkage).  Without it the ankle
    # links (0.01 kg m^2) carry servo damping sized for the whole robot (up to 600 N m s/rad),
    # h d / I ~ 40 at the 1 ms step, and the point feet chatter, hop and slide under the squats.
    r.actuator_class("hydraulic", armature=0.25, damping=1.0, coulomb_friction=1.5, stribeck_friction=0.5,
                     stribeck_velocity=0.05, velocity_limit=6.0)
    r.actuator_class("hydraulic_small", armature=0.15, damping=0.5, coulomb_friction=0.8, stribeck_friction=0.3,
                     stribeck_velocity=0.05, velocity_limit=8.0)
    r.joint_torque_sensors = "all"

    r.add("pelvis", at=(0, 0, 1.00),
          mass=Mass(10.0, (-0.01, 0, 0.01), box(0.20, 0.30, 0.14)),
          geoms=[box(0.22, 0.32, 0.16, at=(0, 0, 0.01), color="dark")])
    r.base_link = "pelvis"
    r.imu = r.frame("imu", "pelvis", (0, 0, 1.02))

    # Joint order and sign conventions of SL's Sarcos humanoid: hip flexion (HFE), adduction
    # (HAA), rotation (HFR), knee (KFE), ankle rotation (AR), flexion (AFE), inversion (AAA).
    # Axes are chosen so that positive is flexion / adduction / internal rotation / inversion on
    # both legs; unlike the other robots the lateral axes are therefore mirrored.
    for p, P, s in SIDES:
        y = 0.10 * s
        r.add(p + "_hip_flexion_link", "pelvis", p + "_hip_flexion", at=(0, y, 0.90), axis=(0, -1, 0),
              limit=(-0.5, 2.0), act=("hydraulic", 200),
              mass=Mass(1.0, (0, 0, 0), cyl(0.06, 0.08, axis="y")),
              geoms=[cyl(0.06, 0.08, axis="y", collide=False)])
        r.add(p + "_hip_adduction_link", p + "_hip_flexion_link", p + "_hip_adduction", at=(0, y, 0.90),
              axis=(-s, 0, 0), limit=(-0.8, 0.4), act=("hydraulic", 150),
              mass=Mass(1.2, (0, 0, -0.02), box(0.10, 0.08, 0.08)),
              geoms=[box(0.10, 0.08, 0.08, at=(0, 0, -0.02), collide=False)])
        r.add(p + "_thigh", p + "_hip_adduction_link", p + "_hip_rotation", at=(0, y, 0.90), axis=(0, 0, -s),
              limit=(-0.7, 0.7), act=("hydraulic_small", 80),
              mass=Mass(6.6, (0.01, 0, -0.18), cyl(0.07, 0.38, rpy=(0, 0.04, 0))),
              geoms=[cyl(0.07, 0.32, at=(0, 0, -0.22), color="blue")])
        r.add(p + "_shank", p + "_thigh", p + "_knee", at=(0, y, 0.50), axis=(0, 1, 0),
              limit=(0.0, 2.4), act=("hydraulic", 200),
              mass=Mass(3.2, (0.01, 0, -0.14), cyl(0.055, 0.30)),
              geoms=[cyl(0.055, 0.26, at=(0, 0, -0.15), color="blue")])
        r.add(p + "_ankle_rotation_link", p + "_shank", p + "_ankle_rotation", at=(0, y, 0.20), axis=(0, 0, -s),
              limit=(-0.5, 0.5), act=("hydraulic_small", 40),
              mass=Mass(0.9, (0, 0, -0.04), cyl(0.045, 0.08)),
              geoms=[cyl(0.045, 0.08, at=(0, 0, -0.04), collide=False)])
        r.add(p + "_ankle_flexion_link", p + "_ankle_rotation_link", p + "_ankle_flexion", at=(0, y, 0.09),
              axis=(0, -1, 0), limit=(-0.8, 0.6), act=("hydraulic", 120),
              mass=Mass(0.5, (0, 0, 0), box(0.06, 0.06, 0.06)),
              geoms=[box(0.06, 0.06, 0.06, collide=False)])
        r.add(p + "_foot", p + "_ankle_flexion_link", p + "_ankle_inversion", at=(0, y, 0.09), axis=(-s, 0, 0),
              limit=(-0.5, 0.5), act=("hydraulic_small", 60),
              mass=Mass(1.6, (0.03, 0, -0.06), box(0.24, 0.12, 0.05)),
              geoms=[box(0.06, 0.06, 0.05, at=(0, 0, -0.025), collide=False),
                     box(0.24, 0.12, 0.04, at=(0.04, 0, -0.07), color="black")])
        r.add(p + "_sole_link", p + "_foot", p + "_sole_mount", "fixed", at=(0.04, y, 0.0))
        r.ft_sensors.append(dict(r.frame(p + "_foot_ft", p + "_foot", (0, y, 0.04)), measures="external"))
        # Paper 004 models each foot by four point contacts (corners, slightly inside the sole).
        r.contacts.append(dict(r.frame(p + "_foot_points", p + "_foot", (0.04, y, 0.0)),
                               points=[[0.11, 0.055, 0], [0.11, -0.055, 0], [-0.11, 0.055, 0], [-0.11, -0.055, 0]],
                               friction=0.8))

    r.add("torso_roll_link", "pelvis", "torso_roll", at=(0, 0, 1.10), axis=(1, 0, 0),
          limit=(-0.4, 0.4), act=("hydraulic", 150),
          mass=Mass(1.0, (0, 0, 0), cyl(0.05, 0.10, axis="x")),
          geoms=[cyl(0.05, 0.10, axis="x", collide=False)])
    # Torso stub: principal axes tilted about two axes, written as a full tensor.
    r.add("torso", "torso_roll_link", "torso_pitch", at=(0, 0, 1.10), axis=(0, 1, 0),
          limit=(-0.3, 0.8), act=("hydraulic", 150),
          mass=Mass(7.0, (-0.02, 0, 0.16), box(0.22, 0.32, 0.28, rpy=(0.05, 0.1, 0)), full=True),
          geoms=[box(0.24, 0.34, 0.30, at=(0, 0, 0.17), color="dark")])
    # Hydraulic manifold and valve block on the back of the torso: massive fixed child.
    r.add("hydraulic_manifold", "torso", "manifold_mount", "fixed", at=(-0.165, 0, 1.25),
          mass=Mass(2.0, (0, 0, 0), box(0.08, 0.20, 0.12)),
          geoms=[box(0.08, 0.20, 0.12, color="orange")])
    return r


# Dynamixel MX-106 from its datasheet at 12 V: stall torque 8.4 N m, no-load speed 45 rpm,
# gear ratio 225.  An ideal DC motor (paper 002, eq. 5) then has, at the motor,
#   k_tau = U / (N * w_noload)          (no load: all voltage is back-EMF)
#   R     = U * k_tau * N / tau_stall   (stall: all voltage drives current)
# so both datasheet points are reproduced exactly at 12 V.  The rotor inertia is a guess for
# the coreless motor inside (with the first gear stage).
#
# Friction: the ratios of paper 002's identified coefficients (Table 1b; the unknown k_ctrl
# cancels) give Coulomb alpha_2/alpha_0 = 0.69 N m and total viscous alpha_1/alpha_0 = 2.50
# N m s/rad, of which (N k_tau)^2 / R = 1.78 is back-EMF; the remaining 0.72 N m s/rad is
# mechanical damping.  The Stribeck transition 0.1 rad/s is the paper's; the extra static
# friction 0.15 N m is its alpha_3/alpha_0.  p_gain 32 is the firmware's factory P register
# (K_P = P/8); 14.8 V is NimbRo-OP's battery.
_MX106_U, _MX106_N = 12.0, 225.0
_MX106_W0 = 45.0 * 2 * math.pi / 60
_MX106_KT = _MX106_U / (_MX106_N * _MX106_W0)
MX106 = dict(gear_ratio=_MX106_N,
             torque_constant=round(_MX106_KT, 6),
             resistance=round(_MX106_U * _MX106_KT * _MX106_N / 8.4, 4),
             rotor_inertia=8.7e-8,
             damping=0.72, coulomb_friction=0.69, stribeck_friction=0.15, stribeck_velocity=0.1,
             p_gain=32, supply_voltage=14.8)


# --------------------------------------------------------------------------------------------
# 4. Walker, Sweaty-like (paper 001).
# --------------------------------------------------------------------------------------------


def walker():
    r = Robot("walker")
    # Sweaty drives legs and torso with spindle motors through rod-and-lever linkages whose
    # ratio varies with the joint angle; here a constant equivalent ratio at q = 0.  The arms and
    # head use Dynamixel-class servos (MX-106 / MX-64 data, see servo_bench).
    r.actuator_class("spindle", gear_ratio=160, torque_constant=0.0231, resistance=0.386, rotor_inertia=1.0e-6,
                     damping=0.3, coulomb_friction=1.0, stribeck_friction=0.3, stribeck_velocity=0.05,
                     supply_voltage=24.0)
    r.actuator_class("mx106", **MX106)
    r.actuator_class("mx64", gear_ratio=200, torque_constant=0.009095, resistance=3.638, rotor_inertia=6.0e-8,
                     damping=0.4, coulomb_friction=0.4, stribeck_friction=0.1, stribeck_velocity=0.1, p_gain=32,
                     supply_voltage=14.8)

    r.add("pelvis", at=(0, 0, 1.00),
          mass=Mass(4.2, (-0.01, 0, 0), box(0.15, 0.24, 0.10)),
          geoms=[box(0.16, 0.26, 0.12, color="dark")])
    r.base_link = "pelvis"
    # IMU on the hip, plus three accelerometers along orthogonal lever arms from it (paper 001,
    # Fig. 3): the lever arms must be linearly independent for the algebraic angular acceleration.
    imu = (-0.02, 0, 1.00)
    r.imu = r.frame("imu", "pelvis", imu)
    r.accelerometers = [r.frame("acc_x", "pelvis", add(imu, (0.06, 0, 0))),
                        r.frame("acc_y", "pelvis", add(imu, (0, 0.08, 0))),
                        r.frame("acc_z", "pelvis", add(imu, (0, 0, 0.04)))]

    for p, P, s in SIDES:
        y = 0.10 * s
        r.add(p + "_hip_yaw_link", "pelvis", p + "_hip_yaw", at=(0, y, 0.94), axis=(0, 0, 1),
              limit=side_limit(-0.8, 0.8, s), act=("spindle", 40),
              mass=Mass(0.45, (0, 0, -0.02), cyl(0.04, 0.05)),
              geoms=[cyl(0.04, 0.05, at=(0, 0, -0.025), collide=False)])
        r.add(p + "_hip_roll_link", p + "_hip_yaw_link", p + "_hip_roll", at=(0, y, 0.89), axis=(1, 0, 0),
              limit=side_limit(-0.4, 0.7, s), act=("spindle", 100),
              mass=Mass(0.65, (0, 0, 0.01), box(0.08, 0.07, 0.07)),
              geoms=[box(0.08, 0.07, 0.07, at=(0, 0, 0.01), collide=False)])
        r.add(p + "_thigh", p + "_hip_roll_link", p + "_hip_pitch", at=(0, y, 0.89), axis=(0, 1, 0),
              limit=(-2.0, 0.6), act=("spindle", 120),
              mass=Mass(2.8, (0.01, 0, -0.17), cyl(0.055, 0.34, rpy=(0.02 * s, -0.04, 0))),
              geoms=[cyl(0.055, 0.32, at=(0, 0, -0.20), color="blue")])
        r.add(p + "_shank", p + "_thigh", p + "_knee", at=(0, y, 0.49), axis=(0, 1, 0),
              limit=(0.0, 2.4), act=("spindle", 120),
              mass=Mass(1.65, (0.005, 0, -0.16), cyl(0.045, 0.34)),
              geoms=[cyl(0.045, 0.30, at=(0, 0, -0.19), color="blue")])
        r.add(p + "_ankle_pitch_link", p + "_shank", p + "_ankle_pitch", at=(0, y, 0.09), axis=(0, 1, 0),
              limit=(-0.9, 0.8), act=("spindle", 80),
              mass=Mass(0.25, (0, 0, 0), box(0.05, 0.05, 0.05)),
              geoms=[box(0.05, 0.05, 0.05, collide=False)])
        r.add(p + "_foot", p + "_ankle_pitch_link", p + "_ankle_roll", at=(0, y, 0.09), axis=(1, 0, 0),
              limit=(-0.5, 0.5), act=("spindle", 80),
              mass=Mass(0.6, (0.02, 0, -0.06), box(0.22, 0.12, 0.03)),
              geoms=[box(0.05, 0.05, 0.05, at=(0, 0, -0.025), collide=False),
                     box(0.22, 0.12, 0.04, at=(0.03, 0, -0.07), color="black")])
        r.add(p + "_sole_link", p + "_foot", p + "_sole_mount", "fixed", at=(0.03, y, 0.0))
        r.contacts.append(dict(r.frame(p + "_sole", p + "_foot", (0.03, y, 0.0)),
                               polygon=[[0.11, 0.06], [-0.11, 0.06], [-0.11, -0.06], [0.11, -0.06]],
                               friction=0.8))

    r.add("torso_yaw_link", "pelvis", "torso_yaw", at=(0, 0, 1.06), axis=(0, 0, 1),
          limit=(-1.0, 1.0), act=("spindle", 80),
          mass=Mass(0.5, (0, 0, 0.02), cyl(0.06, 0.04)),
          geoms=[cyl(0.06, 0.04, at=(0, 0, 0.02), collide=False)])
    r.add("torso_pitch_link", "torso_yaw_link", "torso_pitch", at=(0, 0, 1.10), axis=(0, 1, 0),
          limit=(-0.4, 1.0), act=("spindle", 80),
          mass=Mass(0.5, (0, 0, 0), box(0.06, 0.06, 0.06)),
          geoms=[box(0.06, 0.06, 0.06, collide=False)])
    r.add("chest", "torso_pitch_link", "torso_roll", at=(0, 0, 1.10), axis=(1, 0, 0),
          limit=(-0.4, 0.4), act=("spindle", 80),
          mass=Mass(4.0, (-0.01, 0, 0.17), box(0.17, 0.28, 0.32)),
          geoms=[box(0.18, 0.30, 0.34, at=(0, 0, 0.18), color="dark")])
    r.add("chest_battery", "chest", "chest_battery_mount", "fixed", at=(-0.06, 0, 1.22),
          mass=Mass(1.0, (0, 0, 0), box(0.05, 0.16, 0.10)),
          geoms=[box(0.05, 0.16, 0.10, collide=False, color="orange")])
    r.add("neck", "chest", "head_yaw", at=(0, 0, 1.47), axis=(0, 0, 1),
          limit=(-1.5, 1.5), act=("mx64", 6.0),
          mass=Mass(0.15, (0, 0, 0.025), cyl(0.025, 0.05)),
          geoms=[cyl(0.025, 0.05, at=(0, 0, 0.025), collide=False)])
    r.add("head", "neck", "head_pitch", at=(0, 0, 1.52), axis=(0, 1, 0),
          limit=(-0.6, 0.9), act=("mx64", 6.0),
          mass=Mass(0.85, (0.01, 0, 0.03), box(0.15, 0.13, 0.17)),
          geoms=[box(0.16, 0.14, 0.18, at=(0, 0, 0.04))])

    for p, P, s in SIDES:
        y = 0.21 * s
        r.add(p + "_shoulder_pitch_link", "chest", p + "_shoulder_pitch", at=(0, 0.15 * s, 1.40), axis=(0, 1, 0),
              limit=(-3.0, 1.0), act=("mx106", 8.0),
              mass=Mass(0.2, (0, 0.03 * s, 0), cyl(0.04, 0.06, axis="y")),
              geoms=[cyl(0.04, 0.06, axis="y", at=(0, 0.03 * s, 0), collide=False)])
        r.add(p + "_shoulder_roll_link", p + "_shoulder_pitch_link", p + "_shoulder_roll", at=(0, y, 1.40),
              axis=(1, 0, 0), limit=side_limit(-0.2, 2.6, s), act=("mx106", 8.0),
              mass=Mass(0.25, (0, 0, -0.01), box(0.06, 0.06, 0.06)),
              geoms=[box(0.06, 0.06, 0.06, at=(0, 0, -0.01), collide=False)])
        r.add(p + "_upper_arm", p + "_shoulder_roll_link", p + "_shoulder_yaw", at=(0, y, 1.34), axis=(0, 0, 1),
              limit=(-1.6, 1.6), act=("mx106", 8.0),
              mass=Mass(0.55, (0, 0, -0.10), cyl(0.035, 0.20)),
              geoms=[cyl(0.035, 0.19, at=(0, 0, -0.11), color="blue")])
        r.add(p + "_forearm", p + "_upper_arm", p + "_elbow", at=(0, y, 1.13), axis=(0, 1, 0),
              limit=(-2.4, 0.0), act=("mx106", 8.0),
              mass=Mass(0.4, (0, 0, -0.09), cyl(0.03, 0.19)),
              geoms=[cyl(0.03, 0.18, at=(0, 0, -0.105), color="blue")])
        r.add(p + "_wrist_yaw_link", p + "_forearm", p + "_wrist_yaw", at=(0, y, 0.92), axis=(0, 0, 1),
              limit=(-1.8, 1.8), act=("mx64", 5.0),
              mass=Mass(0.12, (0, 0, -0.015), cyl(0.025, 0.03)),
              geoms=[cyl(0.025, 0.03, at=(0, 0, -0.015), collide=False)])
        r.add(p + "_wrist_pitch_link", p + "_wrist_yaw_link", p + "_wrist_pitch", at=(0, y, 0.89), axis=(0, 1, 0),
              limit=(-1.0, 1.0), act=("mx64", 5.0),
              mass=Mass(0.1, (0, 0, 0), box(0.04, 0.04, 0.04)),
              geoms=[box(0.04, 0.04, 0.04, collide=False)])
        r.add(p + "_hand", p + "_wrist_pitch_link", p + "_wrist_roll", at=(0, y, 0.87), axis=(0, 0, 1),
              limit=(-1.2, 1.2), act=("mx64", 5.0),
              mass=Mass(0.18, (0, 0, -0.06), box(0.07, 0.03, 0.12)),
              geoms=[box(0.07, 0.03, 0.12, at=(0, 0, -0.065))])
    return r


# --------------------------------------------------------------------------------------------
# 5. Servo bench, NimbRo-OP hip-pitch rig (paper 002).
# --------------------------------------------------------------------------------------------

def servo_bench():
    r = Robot("servo_bench", floating=False)
    r.actuator_class("mx106", **MX106)
    a = r.actuator_classes["mx106"]
    stall_at_supply = a["supply_voltage"] * a["gear_ratio"] * a["torque_constant"] / a["resistance"]

    # The root link "world" with a fixed joint makes this a fixed-base robot (floating_base: false).
    r.add("world", at=(0, 0, 0))
    r.add("torso", "world", "world_to_torso", "fixed", at=(0, 0, 0.60),
          mass=Mass(2.5, (0, 0, 0.10), box(0.12, 0.20, 0.22)),
          geoms=[box(0.12, 0.20, 0.22, at=(0, 0, 0.11), color="dark")])
    r.base_link = "torso"
    r.imu = r.frame("imu", "torso", (0, 0, 0.70))
    # Hip yaw and roll servos hold position during the experiment: fixed joints.
    r.add("l_hip_yaw_link", "torso", "l_hip_yaw_locked", "fixed", at=(0, 0.055, 0.58),
          mass=Mass(0.16, (0, 0, -0.01), box(0.04, 0.04, 0.04)),
          geoms=[box(0.04, 0.04, 0.04, at=(0, 0, -0.01), collide=False)])
    r.add("l_hip_roll_link", "l_hip_yaw_link", "l_hip_roll_locked", "fixed", at=(0, 0.055, 0.53),
          mass=Mass(0.17, (0, 0, 0.01), box(0.04, 0.05, 0.065)),
          geoms=[box(0.04, 0.05, 0.065, at=(0, 0, 0.01), collide=False)])
    # The swinging leg (~1 kg, 0.34 m hip to sole).  Knee and ankle servos hold position too,
    # so shank, ankle and foot are fixed children: the moving body is their merge.
    r.add("l_thigh", "l_hip_roll_link", "l_hip_pitch", at=(0, 0.055, 0.53), axis=(0, 1, 0),
          limit=(-2.2, 1.6), act=("mx106", round(stall_at_supply, 2)),
          mass=Mass(0.40, (0.005, 0, -0.08), box(0.045, 0.05, 0.15)),
          geoms=[box(0.045, 0.05, 0.15, at=(0, 0, -0.075), color="blue")])
    r.add("l_shank", "l_thigh", "l_knee_locked", "fixed", at=(0, 0.055, 0.38),
          mass=Mass(0.20, (0, 0, -0.07), box(0.04, 0.045, 0.15)),
          geoms=[box(0.04, 0.045, 0.15, at=(0, 0, -0.075), color="blue")])
    # Two ankle servos, mounted crosswise: principal axes turned about z, full tensor.
    r.add("l_ankle_link", "l_shank", "l_ankle_locked", "fixed", at=(0, 0.055, 0.23),
          mass=Mass(0.32, (0, 0, -0.01), box(0.05, 0.06, 0.07, rpy=(0, 0, 0.3)), full=True),
          geoms=[box(0.05, 0.06, 0.07, at=(0, 0, -0.01), collide=False)])
    r.add("l_foot", "l_ankle_link", "l_foot_mount", "fixed", at=(0, 0.055, 0.23),
          mass=Mass(0.10, (0.01, 0, -0.034), box(0.20, 0.12, 0.012)),
          geoms=[box(0.20, 0.12, 0.012, at=(0.01, 0, -0.034), color="black")])
    r.add("l_sole_link", "l_foot", "l_sole_mount", "fixed", at=(0.01, 0.055, 0.19))
    return r


# --------------------------------------------------------------------------------------------
# 6. Arm7, a 7-DOF fixed-base arm of the KUKA LBR iiwa 14 R820 class (issue 14).
# --------------------------------------------------------------------------------------------

def arm7():
    r = Robot("arm7", floating=False)
    # Drives: harmonic drives 160:1 (A1-A5) and 100:1 (A6, A7); rotor inertias and friction are
    # our assumptions for motors of this size (armature = 160^2 x 1.2e-5 = 0.31 kg m^2 on A1, A2).
    # Friction on the motor side as large as a good part of the gravity torques, as on real arms.
    r.actuator_class("a12", gear_ratio=160, rotor_inertia=1.2e-5, damping=1.6, coulomb_friction=4.5,
                     stribeck_friction=0.0, stribeck_velocity=0.05, velocity_limit=round(math.radians(85), 4))
    r.actuator_class("a3", gear_ratio=160, rotor_inertia=7.0e-6, damping=1.1, coulomb_friction=2.8,
                     stribeck_friction=0.0, stribeck_velocity=0.05, velocity_limit=round(math.radians(100), 4))
    r.actuator_class("a4", gear_ratio=160, rotor_inertia=7.0e-6, damping=1.0, coulomb_friction=2.5,
                     stribeck_friction=0.0, stribeck_velocity=0.05, velocity_limit=round(math.radians(75), 4))
    r.actuator_class("a5", gear_ratio=160, rotor_inertia=3.5e-6, damping=0.6, coulomb_friction=1.4,
                     stribeck_friction=0.0, stribeck_velocity=0.05, velocity_limit=round(math.radians(130), 4))
    r.actuator_class("a67", gear_ratio=100, rotor_inertia=3.0e-6, damping=0.25, coulomb_friction=0.6,
                     stribeck_friction=0.0, stribeck_velocity=0.05, velocity_limit=round(math.radians(135), 4))
    deg = math.radians
    # Datasheet geometry (z up at the zero pose, the arm stretched vertically): A2 0.36 m above the
    # mounting flange, A4 0.42 m above A2, A6 0.40 m above A4, the tool flange 0.126 m above A6.
    r.add("world", at=(0, 0, 0))
    r.add("arm7_link_0", "world", "world_to_link_0", "fixed", at=(0, 0, 0),
          mass=Mass(5.0, (-0.013, 0, 0.07), cyl(0.11, 0.15)),
          geoms=[cyl(0.11, 0.15, at=(0, 0, 0.075), color="dark")])
    r.base_link = "arm7_link_0"
    r.add("arm7_link_1", "arm7_link_0", "a1", at=(0, 0, 0.1575), axis=(0, 0, 1),
          limit=(-deg(170), deg(170)), act=("a12", 320),
          mass=Mass(4.0, (0, -0.03, 0.12), cyl(0.08, 0.24, rpy=(0.05, 0, 0))),
          geoms=[cyl(0.08, 0.20, at=(0, -0.02, 0.10), color="orange")])
    r.add("arm7_link_2", "arm7_link_1", "a2", at=(0, 0, 0.36), axis=(0, 1, 0),
          limit=(-deg(120), deg(120)), act=("a12", 320),
          mass=Mass(4.0, (0.0003, 0.059, 0.042), cyl(0.08, 0.22, rpy=(0.1, 0, 0)), full=True),
          geoms=[cyl(0.08, 0.16, at=(0, 0.03, 0.06), color="orange")])
    r.add("arm7_link_3", "arm7_link_2", "a3", at=(0, 0, 0.5645), axis=(0, 0, 1),
          limit=(-deg(170), deg(170)), act=("a3", 176),
          mass=Mass(3.0, (0, 0.03, 0.13), cyl(0.07, 0.24)),
          geoms=[cyl(0.07, 0.20, at=(0, 0.02, 0.11), color="orange")])
    r.add("arm7_link_4", "arm7_link_3", "a4", at=(0, 0, 0.78), axis=(0, -1, 0),
          limit=(-deg(120), deg(120)), act=("a4", 176),
          mass=Mass(2.7, (0, 0.067, 0.034), cyl(0.07, 0.18, rpy=(-0.1, 0, 0.05)), full=True),
          geoms=[cyl(0.07, 0.14, at=(0, 0.03, 0.05), color="orange")])
    r.add("arm7_link_5", "arm7_link_4", "a5", at=(0, 0, 0.9645), axis=(0, 0, 1),
          limit=(-deg(170), deg(170)), act=("a5", 110),
          mass=Mass(1.7, (0.0001, 0.021, 0.076), cyl(0.06, 0.20)),
          geoms=[cyl(0.06, 0.18, at=(0, 0.01, 0.09), color="orange")])
    r.add("arm7_link_6", "arm7_link_5", "a6", at=(0, 0, 1.18), axis=(0, 1, 0),
          limit=(-deg(120), deg(120)), act=("a67", 40),
          mass=Mass(1.8, (0, 0.0006, 0.0004), box(0.10, 0.12, 0.10, rpy=(0, 0, 0.2)), full=True),
          geoms=[box(0.10, 0.12, 0.10, color="orange")])
    r.add("arm7_link_7", "arm7_link_6", "a7", at=(0, 0, 1.261), axis=(0, 0, 1),
          limit=(-deg(175), deg(175)), act=("a67", 40),
          mass=Mass(0.3, (0.01, 0.005, 0.03), cyl(0.04, 0.05)),
          geoms=[cyl(0.04, 0.045, at=(0, 0, 0.0225), color="dark")])
    r.add("arm7_flange", "arm7_link_7", "a7_flange", "fixed", at=(0, 0, 1.306))
    # Joint torques from the motor currents (current x torque constant x gear ratio): what the motor
    # applies, before joint friction and rotor inertia, so the identification sees the friction.
    r.joint_torque_sensors = "all"
    r.joint_torque_side = "motor"
    return r


ROBOTS = [adult_humanoid, kid_humanoid, biped16, walker, servo_bench, arm7]


def main():
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out_dir = os.path.join(repo, "models")
    os.makedirs(out_dir, exist_ok=True)
    for make in ROBOTS:
        robot = make()
        for ext, text in (("urdf", robot.urdf()), ("yaml", robot.sidecar())):
            with open(os.path.join(out_dir, "%s.%s" % (robot.name, ext)), "w", newline="\n") as f:
                f.write(text)
        com = robot.com_world()
        print("%-15s %2d DOF  mass %.4f kg  height %.3f m  COM at q=0 (%.4f, %.4f, %.4f) m  %s base '%s'"
              % (robot.name, robot.dof(), robot.total_mass(), robot.height(), com[0], com[1], com[2],
                 "floating" if robot.floating else "fixed", robot.base_link))
    return 0


if __name__ == "__main__":
    sys.exit(main())
