#!/usr/bin/env python3
"""jlay_input.py - writes a MoorDyn v2 input file for pipelay's 740-node J-lay on a circle
(examples/jlay_circle.yaml with mesh.elements=739; bench/moordyn_jlay.sh).

    jlay_input.py MODEL SEGMENTS TOP_X DTM SCHEME OUT

MODEL the pipelay model (its line, environment, hydrodynamics and bottom end are read from
it), SEGMENTS the number of MoorDyn segments (pipelay's elements), TOP_X the x of the top end
in pipelay's static answer (timeseries_top.csv at t = 0), DTM MoorDyn's time step [s], SCHEME
its time scheme (RK4, RK2, ...), OUT the file to write.

The line (one MoorDyn line of SEGMENTS equal segments, unstretched length as pipelay's):
  d = outer diameter (MoorDyn's diameter sets both the displaced volume and the drag area, as
      pipelay's outer diameter does here), mass/length rho_s A of the steel wall (the
      contents are empty), EA = E A, EI = E I of the wall, BA = 0 (pipelay's rod has no
      structural damping), Cd = the normal drag, Ca = the normal added mass, CdAx = the
      tangential drag, CaAx = the tangential added mass (all as the model).
The ends:
  bottom: clamped. MoorDyn pins a line end on a point; a line end on the end of a Rod is
      cantilevered (its end tangent held along the rod). So a Fixed Rod of one segment, one
      element long, lies on the seabed along the pipe's static direction at the bottom end
      (+x, pipelay's ends.bottom.orientation [0, 0, 0]) and the line starts at its end B. A
      fixed rod does not move, so its own properties (set to the pipe's) do not enter.
  top: a Coupled point (MoorDyn pins the line's end on it: a hinge, free to rotate, as
      pipelay's top), at (TOP_X, 0, 0), moved by the driver.
The seabed: MoorDyn's is a linear spring and damper per contact area on each node's centre
  (force per length (kBot pen - cBot v_z) d, pen the node's depth below WtrDpth). pipelay's
  nonlinear spring (models/seabed.c, eq. 5.38) acts on the pipe's lowest fibre and has at rest
  (the submerged weight w carried at d_o/8 fibre penetration) the tangent k0 = 10 w / d_o per
  length. kBot = k0 / d gives MoorDyn the same stiffness at rest; the pipe then rests with its
  centre w / k0 = d_o / 10 below MoorDyn's plane, so WtrDpth = (the bottom end's depth, the
  centre of a pipe at rest in pipelay) - d_o / 10 puts a resting pipe at the same height in
  both. cBot = the model's seabed damping per length / d (the example's is 0: undamped, as
  there). MoorDyn's spring is linear from first touch, pipelay's quadratic up to d_o/20 fibre
  penetration: the two differ near touchdown only.
Environment: water density, gravity as the model; no current or waves.
Initial conditions: MoorDyn's own static solve (its stationary scheme, ICgenDynamic 0) with
  MoorDyn's default threshold (threshIC 0.001: it stops when its error falls below that fraction
  of its first or changes by less than that fraction over dtIC = 1 s of pseudo-time), within
  TmaxIC 60 s. drive_jlay.c starts it
  from pipelay's static shape (fileIC). From MoorDyn's own start (its catenary, which has no
  bending, on the seabed) the same solve stopped after 33 s of pseudo-time with an average
  acceleration of 0.32 m/s^2 left, and with the top held still the top tension then ranged from
  1399 to 1543 kN within a second (BA = 0: nothing damps the line's axial modes); from
  pipelay's shape it stayed within a band of 0.11 kN over 3 s (2026-11-28, dtM 5e-4 s).
"""
import math, sys
import yaml


def main(argv):
    if len(argv) != 7:
        sys.exit(__doc__)
    model, nseg, top_x, dtm, scheme, out = argv[1], int(argv[2]), float(argv[3]), float(argv[4]), argv[5], argv[6]
    m = yaml.safe_load(open(model))
    num = lambda v: float(v)  # YAML 1.1 reads 206e9 (no point) as a string
    env, line = m["environment"], m["line"]
    if len(line["sections"]) != 1:
        sys.exit("jlay_input.py: one section expected")
    s = line["sections"][0]
    do, t = num(s["outer_diameter"]), num(s["wall_thickness"])
    mat, hyd = s["material"], s.get("hydrodynamics", {})
    if s.get("contents_density", 0) != 0:
        sys.exit("jlay_input.py: an empty pipe expected")
    di = do - 2 * t
    A = math.pi / 4 * (do**2 - di**2)
    I = math.pi / 64 * (do**4 - di**4)
    E, rho_s = num(mat["youngs_modulus"]), num(mat["density"])
    rho_w, g = num(env["water_density"]), num(env["gravity"])
    mass = rho_s * A
    w = (mass - rho_w * math.pi / 4 * do**2) * g  # submerged weight per length [N/m]
    k0 = 10 * w / do  # pipelay's contact stiffness per length at rest [N/m^2]
    bed = m.get("seabed", {})
    if bed.get("model", "nonlinear") != "nonlinear" or bed.get("friction") or bed.get("slope"):
        sys.exit("jlay_input.py: a flat frictionless nonlinear seabed expected")
    if "damping" not in bed:
        sys.exit("jlay_input.py: give seabed.damping in the model (pipelay's default is not modelled here)")
    kbot, cbot = k0 / do, num(bed["damping"]) / do
    bottom = m["ends"]["bottom"]
    xb, yb, zb = (num(v) for v in bottom["position"])
    if any(abs(a) > 0 for a in bottom.get("orientation", [0, 0, 0])) or bottom.get("fixed") != "all":
        sys.exit("jlay_input.py: a clamped bottom end along +x expected")
    depth = -zb - do / 10  # MoorDyn's plane d_o / 10 above zb: a centre resting at zb is w / k0 = d_o / 10 below it
    L = num(line["length"])
    le = L / nseg
    p = dict(do=do, mass=mass, EA=E * A, EI=E * I, cd=num(hyd.get("drag_normal", 0)),
             ca=num(hyd.get("added_mass_normal", 0)), cdax=num(hyd.get("drag_tangential", 0)),
             caax=num(hyd.get("added_mass_tangential", 0)))
    with open(out, "w") as f:
        f.write(f"""--------------------- MoorDyn Input File ------------------------------------
{m['name']}: {nseg} segments (written by pipelay bench/moordyn/jlay_input.py)
----------------------- LINE TYPES ------------------------------------------
TypeName   Diam    Mass/m     EA         BA/-zeta    EI         Cd     Ca     CdAx    CaAx
(name)     (m)     (kg/m)     (N)        (N-s/-)     (N-m^2)    (-)    (-)    (-)     (-)
pipe       {p['do']:.6g}  {p['mass']:.10g}  {p['EA']:.10g}  0.0  {p['EI']:.10g}  {p['cd']:.6g}  {p['ca']:.6g}  {p['cdax']:.6g}  {p['caax']:.6g}
---------------------- ROD TYPES ------------------------------------
TypeName      Diam     Mass/m    Cd     Ca      CdEnd    CaEnd
(name)        (m)      (kg/m)    (-)    (-)     (-)      (-)
clamp         {p['do']:.6g}  {p['mass']:.10g}  0.0    0.0     0.0      0.0
----------------------- RODS ----------------------------------------
ID   RodType  Attachment  Xa    Ya    Za    Xb    Yb    Zb    NumSegs  RodOutputs
(#)  (name)   (#/key)     (m)   (m)   (m)   (m)   (m)   (m)   (-)      (-)
1    clamp    Fixed       {xb - le:.10g}  {yb:.10g}  {zb:.10g}  {xb:.10g}  {yb:.10g}  {zb:.10g}  1  -
---------------------- POINTS --------------------------------
ID    Type      X       Y       Z       Mass   Volume  CdA    Ca
(#)   (-)       (m)     (m)     (m)     (kg)   (m^3)   (m^2)  (-)
1     Coupled   {top_x:.17g}  0.0  0.0  0  0  0  0
---------------------- LINES ----------------------------------------
ID   LineType   AttachA  AttachB  UnstrLen  NumSegs  LineOutputs
(#)   (name)     (#)      (#)       (m)       (-)     (-)
1     pipe       R1B      1        {L:.10g}   {nseg}   -
---------------------- OPTIONS -----------------------------------------
0             writeLog
{dtm:.10g}    dtM
{scheme}      tScheme
{g:.10g}      g
{rho_w:.10g}  WtrDnsty
{depth:.10g}  WtrDpth
{kbot:.10g}   kBot
{cbot:.10g}   cBot
0             ICgenDynamic
1.0           dtIC
60.0          TmaxIC
0.001         threshIC
1             disableOutput
1             disableOutTime
------------------------- need this line --------------------------------------
""")


if __name__ == "__main__":
    main(sys.argv)
