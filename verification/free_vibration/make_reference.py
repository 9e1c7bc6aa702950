#!/usr/bin/env python3
# make_reference.py - the analytic periods of the case free_vibration (periods.csv) and the
# support pulses that set the two rods vibrating (cantilever_pulse.csv, string_pulse.csv);
# run once by hand, the output is committed.
#
# Cantilever (cantilever.yaml): Euler-Bernoulli, clamped-free, L = 10 m, EI = 1e5 N m^2,
# m = 20 kg/m: first mode omega_1 = beta_1^2 sqrt(EI/(m L^4)), beta_1 L = 1.8751040687,
# T_1 = 2 pi / omega_1. Shear and rotary inertia (Timoshenko) lower the frequency by
# about (EI/(GA L^2) + J2/(m L^2)) beta_1^2 ~ 2e-5 and are left out.
# Taut string (string.yaml): L0 = 10 m unstretched, EA = 1e7 N, m0 = 10 kg/m, ends held
# 10.1 m apart: strain 0.01, tension T = EA 0.01 = 1e5 N, stretched length Ls = 10.1 m,
# mass per stretched length m0/1.01: T_1 = 2 Ls / sqrt(T (1.01)/m0). Bending (EI = 1 N m^2)
# raises the frequency by pi^2 EI/(2 T Ls^2) ~ 5e-7, rotary inertia (J2 = 0.01 kg m)
# lowers it by pi^2 J2/(2 m0 Ls^2) ~ 5e-5: both left out.
#
# The pulses move the clamped root (cantilever) or both ends (string) sideways (y) by
# D sin^2(pi (t - h)/tau) for h <= t <= h + tau and then hold them still: a Hann-shaped
# pulse, whose spectrum vanishes at the frequencies k/tau, k >= 2. For the cantilever
# tau = 6/6.2669 T_1 puts the second mode (omega_2/omega_1 = (4.6940911/1.8751041)^2 =
# 6.2669) on the zero k = 6, so the free vibration after the pulse is the first mode; for
# the string tau = T_1 puts the odd modes 3, 5, ... (the only others that a symmetric
# motion excites) on zeros. Rows every h = tau/40 with a still row before and after
# (cubic interpolation in pipelay: the slopes vanish at the first and last rows, so the
# prescribed velocity is continuous when the pulse starts and ends).
import math
import os

here = os.path.dirname(os.path.abspath(__file__))

EI, m, L = 1.0e5, 20.0, 10.0
b1, b2 = 1.8751040687119611, 4.6940911329741745
T_cant = 2 * math.pi / (b1 * b1 * math.sqrt(EI / (m * L**4)))
EA, m0, L0, eps = 1.0e7, 10.0, 10.0, 0.01
Ls, T = L0 * (1 + eps), EA * eps
T_string = 2 * Ls / math.sqrt(T / (m0 / (1 + eps)))


def pulse(path, tau, D, what):
    n = 40
    h = tau / n
    with open(path, "w") as f:
        f.write("# %s: sideways (y) pulse D sin^2(pi (t - h)/tau), D = %g m, tau = %.9g s, h = tau/40\n"
                "# (make_reference.py)\nt,x,y,z\n" % (what, D, tau))
        for i in range(n + 3):
            t = i * h
            r = (t - h) / tau
            y = D * math.sin(math.pi * r) ** 2 if 0 < r < 1 else 0.0
            f.write("%.15g,0,%.15g,0\n" % (t, y if abs(y) > 1e-13 else 0.0))
    return (n + 2) * h  # the last row: the end is still from here on


end_c = pulse(os.path.join(here, "cantilever_pulse.csv"), 6.0 / (b2 / b1) ** 2 * T_cant, 0.01, "cantilever root")
end_s = pulse(os.path.join(here, "string_pulse.csv"), T_string, 0.01, "string ends")
assert end_c < 2.6 and end_s < 0.25  # the windows of case.yaml start after the pulses
with open(os.path.join(here, "periods.csv"), "w") as f:
    f.write("# analytic first periods of the case free_vibration (make_reference.py)\nname,value,unit\n")
    f.write("cantilever_T1,%.12g,s\n" % T_cant)
    f.write("string_T1,%.12g,s\n" % T_string)
    f.write("string_tension,%.12g,N\n" % T)
print("cantilever T1 = %.9f s (pulse over at %.4f s), string T1 = %.9f s (pulse over at %.4f s)"
      % (T_cant, end_c, T_string, end_s))
print("diameters for zero submerged weight (rho_w = 1025): cantilever %.17g m, string %.17g m"
      % (math.sqrt(4 * m / (1025 * math.pi)), math.sqrt(4 * m0 / (1025 * math.pi))))
