#!/usr/bin/env python3
"""Does gear backlash make a stiff MX-106 P servo hunt and spend energy? (issue 13, docs/actuators.md)

A one-joint prototype outside dynid's simulator, written to decide whether backlash is worth building
into the walking testbed: paper 002's servo (the model of src/locomotion/servo_model.cpp: the MX
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

    python3 tools/servo_backlash_prototype.py          # about 15 s
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


def main():
    check_gap_crossing()
    print("link J_L [kg m^2] | mesh k_g [N m/rad] | P register | backlash [deg] | U I [W] | I rms [A] | "
          "I rms above 16 Hz [A] | current sign changes [1/s]")
    for jl in (0.002, 0.01, 0.05, 0.4):
        for kg in (300.0, 3000.0):
            for register in (128.0, 44.8):
                for backlash in (0.0, 0.33):
                    p, irms, hf, changes = run(register, backlash, 0.05, jl, kg)
                    print(f"{jl} | {kg:.0f} | {register} | {backlash} | {p:.3f} | {irms:.3f} | {hf:.3f} | {changes:.0f}",
                          flush=True)


if __name__ == "__main__":
    main()
