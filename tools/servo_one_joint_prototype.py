#!/usr/bin/env python3
"""Do gear backlash or stiction make a stiff MX-106 P servo spend more energy than a compliant one?
(issue 13, docs/actuators.md)

One-joint prototypes outside dynid's simulator, written to decide whether either is worth building
into the walking testbed.

1. Backlash: paper 002's servo (the model of src/locomotion/servo_model.cpp: the MX
firmware's P controller at 1 kHz on the 12-bit encoder at the OUTPUT, U = k_ctrl k_P U_bat (q_d - q),
DC motor with back-EMF, Coulomb + Stribeck + viscous gear friction) with the true servo of seed 1's
magnitudes (friction x1.4, R x1.03), but with the rotor as its own body (reflected inertia J_r =
0.0044 kg m^2, the MX-106's) coupled to the link through a dead zone of the datasheet backlash
(Robotis e-manual, MX-106: 20 arcmin = 0.33 deg) and a stiff gear mesh (k_g, searched over a decade
because no datasheet gives it; mesh damping ratio 0.3 on the rotor). Integrated at 10 us. The link is
an inertia J_L with a constant load torque of 0.05 N m (near zero: a loaded flank cannot hunt); the
reference a 1 Hz sine of 0.02 rad.

It prints, per link inertia, mesh stiffness, P register (128 = k_P 1.0, 44.8 = 0.35) and backlash,
the mean electrical power U I, the RMS current, the RMS of the current above a 10 ms low-pass (16 Hz)
and how often the current changes sign per second: a limit cycle across the dead zone ("hunting")
shows as fast current and many sign changes. Before that it checks
its integrator against the closed form of the rotor crossing the dead zone at constant voltage.

2. Stiction: the same servo with a rigid gear, its friction once as dynid simulates it (the sign
smoothed by tanh(qdot / 0.02 rad/s), which never holds a load at rest) and once with true stiction
(Karnopp: at rest the gear holds any net torque up to the static friction, else slides with the
Stribeck curve). A link of 0.05 kg m^2 under a load of 3 +- 1.5 N m (1.9 Hz; a stance knee's order)
follows a 0.7 Hz reference of +-0.15 rad with dwells (the sine clipped and smoothed); controllers:
(a) P at register 128, (c) P at 44.8 plus the exact model's feed-forward voltage (eq. 19 with the
true load), and P at 128 plus the same feed-forward (the same motion at the stiff gain). Before that
it checks the stiction: a joint at rest without motor torque holds 0.9 times the static friction and
breaks away under 1.1 times with the acceleration (load - static friction) / J.

    python3 tools/servo_one_joint_prototype.py          # about 1 minute
"""

import math
import sys

N = 225.0  # gear ratio
KT = 0.011318  # torque constant [N m/A]
R = 3.6378 * 1.03  # winding resistance [ohm]
UB = 14.8  # supply [V]
TC, TS, VS, CV, EPS = 0.69 * 1.4, 0.84 * 1.4, 0.1, 0.72 * 1.4, 0.02  # friction as servo_model.cpp
COUNT = 2.0 * math.pi / 4096.0  # encoder step [rad]
IMAX = 10.36 / (N * KT)  # firmware current limit [A]
DT, PER_CONTROL = 1e-5, 100  # integration step [s], steps per 1 kHz control period


def friction(w):
    beta = math.exp(-abs(w / VS))
    return math.tanh(w / EPS) * ((1.0 - beta) * TC + beta * TS) + CV * w


def volts_per_rad(register):
    # MX firmware: K_P = register / 8 on the error in counts, output in 1/1023 duty.
    return UB * (register / 8.0) / COUNT / 1023.0


def motor_current(u, rotor_speed):
    return max(-IMAX, min(IMAX, (u - KT * N * rotor_speed) / R))


def mesh_torque(gap, relative_speed, half_backlash, kg, cg):
    """Torque the gear transmits from rotor to link: zero inside the dead zone, a stiff one-sided
    spring-damper on the flanks (never pulling)."""
    if gap > half_backlash:
        return max(kg * (gap - half_backlash) + cg * relative_speed, 0.0)
    if gap < -half_backlash:
        return min(kg * (gap + half_backlash) + cg * relative_speed, 0.0)
    return 0.0


def check_gap_crossing():
    """Rotor alone (no friction) from rest at one flank, constant voltage U: w(t) = w_inf (1 - e^(-t/T)),
    theta(t) = w_inf (t - T (1 - e^(-t/T))), w_inf = U / (N k_t), T = J_r R / (N k_t)^2. The time it
    takes to cross a 0.33 deg dead zone from the integrator against the closed form."""
    jr, u, b = 0.0044, 1.0, 0.33 * math.pi / 180.0
    w_inf, tau = u / (N * KT), jr * R / (N * KT) ** 2
    th = w = t = 0.0
    while th < b:
        i = (u - KT * N * w) / R
        w += N * KT * i / jr * DT
        th += w * DT
        t += DT
    lo, hi = 0.0, 1.0  # bisection of theta(t) = b
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if w_inf * (mid - tau * (1.0 - math.exp(-mid / tau))) < b:
            lo = mid
        else:
            hi = mid
    if abs(t - lo) > 2.0 * DT:
        sys.exit(f"integrator check failed: crossing {t * 1e3:.4f} ms, closed form {lo * 1e3:.4f} ms")
    print(f"check: dead-zone crossing at 1 V takes {t * 1e3:.3f} ms, closed form {lo * 1e3:.3f} ms")


def run(register, backlash_deg, load, jl, kg, amp=0.02, freq=1.0, duration=1.5, jr=0.0044):
    h = 0.5 * backlash_deg * math.pi / 180.0
    cg = 2.0 * 0.3 * math.sqrt(kg * jr)
    q = qd = 0.0
    th = -h if load > 0 else h if load < 0 else 0.0  # resting on the loaded flank
    thd = u = 0.0
    energy = i2 = hf2 = slow = 0.0
    sign_changes, last_sign, measured = 0, 0, 0
    for k in range(int(duration / DT)):
        t = k * DT
        if k % PER_CONTROL == 0:
            encoder = round(q / COUNT) * COUNT
            u = max(-UB, min(UB, volts_per_rad(register) * (amp * math.sin(2.0 * math.pi * freq * t) - encoder)))
        i = motor_current(u, thd)
        tg = mesh_torque(th - q, thd - qd, h, kg, cg)
        thd += (N * KT * i - friction(thd) - tg) / jr * DT
        th += thd * DT
        qd += (tg - load) / jl * DT
        q += qd * DT
        slow += (i - slow) * DT / 0.01  # the current low-passed at 10 ms
        if t >= 0.5:  # after the start transient
            measured += 1
            energy += (R * i + KT * N * thd) * i * DT
            i2 += i * i * DT
            hf2 += (i - slow) ** 2 * DT
            s = (i > 0) - (i < 0)
            if s and s != last_sign:
                sign_changes += 1
                last_sign = s
    span = measured * DT
    return energy / span, math.sqrt(i2 / span), math.sqrt(hf2 / span), sign_changes / span


def stribeck(w):
    beta = math.exp(-abs(w / VS))
    return math.copysign((1.0 - beta) * TC + beta * TS, w) + CV * w


def rigid_joint_acceleration(w, motor, load, j, stiction):
    """Joint acceleration and whether the joint sticks this step (Karnopp's stick band at |w| < 1e-4)."""
    if not stiction:
        return (motor - load - friction(w)) / j, False
    if abs(w) < 1e-4:
        net = motor - load
        if abs(net) <= TS:
            return 0.0, True
        return (net - math.copysign(TS, net)) / j, False
    return (motor - load - stribeck(w)) / j, False


def check_stiction():
    j, span = 0.05, 2e-4  # short enough that the Stribeck drop stays below 1 % of the net torque
    for factor, moves in ((0.9, False), (1.1, True)):
        w = 0.0
        for _ in range(int(round(span / DT))):
            acc, stuck = rigid_joint_acceleration(w, 0.0, -factor * TS, j, True)
            w = 0.0 if stuck else w + acc * DT
        expected = (factor - 1.0) * TS / j * span if moves else 0.0
        if abs(w - expected) > 0.02 * abs(expected) + 1e-15:
            sys.exit(f"stiction check failed at {factor} x static friction: speed {w:.4e} rad/s, expected {expected:.4e}")
    print(f"check: at rest the joint holds 0.9 x static friction; under 1.1 x it breaks away at "
          f"{0.1 * TS / j:.3f} rad/s^2 (the closed form (load - static friction) / J)")


def dwell_reference(t, amplitude=0.15, freq=0.7):
    def position(tt):
        s = max(-1.0, min(1.0, 2.0 * math.sin(2.0 * math.pi * freq * tt)))
        return amplitude * s * (1.5 - 0.5 * s * s)

    h = 1e-4
    return (position(t), (position(t + h) - position(t - h)) / (2.0 * h),
            (position(t + h) - 2.0 * position(t) + position(t - h)) / (h * h))


def run_stiction(register, feedforward, stiction, j=0.05, duration=6.0):
    q = w = u = 0.0
    energy = i2 = e2 = 0.0
    measured = 0
    for k in range(int(duration / DT)):
        t = k * DT
        load = 3.0 + 1.5 * math.sin(2.0 * math.pi * 1.9 * t)
        if k % PER_CONTROL == 0:
            qr, vr, ar = dwell_reference(t)
            encoder = round(q / COUNT) * COUNT
            u = volts_per_rad(register) * (qr - encoder)
            if feedforward:  # the exact model's voltage for the planned motion (eq. 19), sign smoothed
                beta = math.exp(-abs(vr / VS))
                f_plan = math.tanh(vr / 0.05) * ((1.0 - beta) * TC + beta * TS) + CV * vr
                u += R / (N * KT) * (load + j * ar + f_plan) + N * KT * vr
            u = max(-UB, min(UB, u))
        i = motor_current(u, w)
        acc, stuck = rigid_joint_acceleration(w, N * KT * i, load, j, stiction)
        w_next = 0.0 if stuck else w + acc * DT
        if stiction and w != 0.0 and w_next * w < 0.0:
            w_next = 0.0  # a reversal passes through rest
        w = w_next
        q += w * DT
        if t >= 1.0:
            measured += 1
            energy += u * i * DT
            i2 += i * i * DT
            e2 += (q - dwell_reference(t)[0]) ** 2
    span = measured * DT
    return energy / span, math.sqrt(i2 / span), math.sqrt(e2 / measured)


def main():
    check_gap_crossing()
    check_stiction()
    print("link J_L [kg m^2] | mesh k_g [N m/rad] | P register | backlash [deg] | U I [W] | I rms [A] | "
          "I rms above 16 Hz [A] | current sign changes [1/s]")
    for jl in (0.002, 0.01, 0.05, 0.4):
        for kg in (300.0, 3000.0):
            for register in (128.0, 44.8):
                for backlash in (0.0, 0.33):
                    p, irms, hf, changes = run(register, backlash, 0.05, jl, kg)
                    print(f"{jl} | {kg:.0f} | {register} | {backlash} | {p:.3f} | {irms:.3f} | {hf:.3f} | {changes:.0f}",
                          flush=True)
    print("friction | controller | U I [W] | I rms [A] | tracking RMS [rad]")
    for stiction in (False, True):
        for register, feedforward, name in ((128.0, False, "(a) P 128"), (44.8, True, "(c) P 44.8 + feed-forward"),
                                            (128.0, True, "P 128 + feed-forward")):
            p, irms, err = run_stiction(register, feedforward, stiction)
            print(f"{'stiction' if stiction else 'smoothed sign'} | {name} | {p:.3f} | {irms:.3f} | {err:.4f}",
                  flush=True)


if __name__ == "__main__":
    main()
