//! Paper dice for home printing: the net of each die type (d4, d6, d8, d10, d12, d20) as
//! polygons in millimetres to cut out, fold and glue, with every face numbered, fold lines and
//! glue tabs; and the sticker shape for a blank die's face.
//!
//! Nets are not drawn by hand: each die is built as a solid in 3D, and its net is unfolded from
//! it along a spanning tree of faces (`plan`). So a net folds back into its die by construction,
//! the face indices are given on the solid (opposite faces' indices sum to `sides - 1`: 1–6,
//! 2–5, 3–4 on a d6, 0–9, 1–8 … on a d10) and carried onto the paper, and the tests hold every
//! net to the solid.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Die {
    D4,
    D6,
    D8,
    D10,
    D12,
    D20,
}

impl Die {
    pub fn sides(self) -> usize {
        match self {
            Die::D4 => 4,
            Die::D6 => 6,
            Die::D8 => 8,
            Die::D10 => 10,
            Die::D12 => 12,
            Die::D20 => 20,
        }
    }
}

/// In millimetres, y grows downwards.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct NetFace {
    /// Which face of the die is drawn here: face `i` and face `sides - 1 - i` are opposite
    /// (on every die but the d4, which has no opposite faces). Face `i` shows `i + 1`, or `i`
    /// on a d10, as the caller labels it.
    pub face: usize,
    /// The polygon, clockwise on screen. The printed side is the outside of the die.
    pub outline: Vec<Point>,
    /// Where to draw the face's content: the centre of the face's inscribed circle.
    pub centre: Point,
    /// Degrees (clockwise on screen, as SVG's and Typst's `rotate`) to turn the content so it
    /// reads upright on the face's base edge: for a regular polygon, whichever edge leaves the
    /// content most upright on the page; for the d10's kite, the content points to the 36° apex.
    pub rotation: f64,
    /// The diameter of the face's inscribed circle, centred at `centre`.
    pub size: f64,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Net {
    pub faces: Vec<NetFace>,
    /// Glue tabs, trapezoids clockwise on screen; points 0 and 1 are the face edge it hangs
    /// from. The edge it is glued under is the one other cut edge of the same solid edge.
    pub tabs: Vec<Vec<Point>>,
    /// Edges shared by two faces in the net: fold lines.
    pub folds: Vec<(Point, Point)>,
    /// The bounding box of faces and tabs, which starts at (0, 0).
    pub width: f64,
    pub height: f64,
}

/// The net of `die`, `edge_mm` being the length of a face's longest edge (every edge but the
/// d10's, whose kites have two long and two short edges).
pub fn net(die: Die, edge_mm: f64) -> Net {
    layout(die, edge_mm).net
}

/// The sticker for one face of a blank die of this type: the face's polygon (centred at 0,0, base
/// edge at the bottom), its inscribed circle diameter.
pub fn sticker(die: Die, edge_mm: f64) -> (Vec<Point>, f64) {
    let outline: Vec<V2> = solid(die, edge_mm).flat(0).into_iter().rev().collect();
    let (centre, rotation, size) = content(&outline);
    let turn = -rotation.to_radians();
    (
        outline
            .iter()
            .map(|&p| point(rot(sub(p, centre), turn)))
            .collect(),
        size,
    )
}

/// A sensible edge length in mm for a paper die of this type (e.g. d6 25 mm): each die about
/// 4 cm across, and each net fits an A4 or Letter page inside the margins.
pub(crate) fn default_edge(die: Die) -> f64 {
    match die {
        Die::D4 => 35.0,
        Die::D6 => 25.0,
        Die::D8 => 28.0,
        Die::D10 => 24.0,
        Die::D12 => 15.0,
        Die::D20 => 21.0,
    }
}

/// How each die unfolds: the angle of the first face's edge 0 on the page, then the steps, two
/// digits each. Step `pk` lays down a new face across edge `k` of net face `p` (0–9, in the order
/// laid), counting p's edges anticlockwise on screen from the one p was reached through (k = 0),
/// or from its edge 0 for the first face: seen from p with its parent below, k = 1 is on the
/// right. A step onto a face already laid is a bug, caught when the net is made.
fn plan(die: Die) -> (f64, &'static str) {
    match die {
        // The centre triangle (upside down) and one triangle on each of its edges.
        Die::D4 => (180.0, "00 01 02"),
        // A cross: a column of four squares, one more on each side of the second from the bottom.
        Die::D6 => (0.0, "02 12 01 03 00"),
        // A band of six triangles that closes round the die, one above it and one below.
        Die::D8 => (0.0, "01 11 22 31 42 12 41"),
        // Two fans of five kites, each half a disc round its pole (5 × 36°): the fan round the
        // top pole, then across the middle kite's short edge the fan round the bottom pole.
        Die::D10 => (90.0, "03 13 00 31 02 51 63 52 81"),
        // Two flowers, a pentagon with five petals, joined petal to petal.
        Die::D12 => (0.0, "00 01 02 03 04 12 63 71 72 73 74"),
        // The band of ten triangles round the middle, five up from it and five down.
        Die::D20 => (
            0.0,
            "01 11 22 31 42 51 62 71 82 12 32 52 72 92 00 21 41 61 81",
        ),
    }
}

/// A net with what it was unfolded from, which the tests hold it to.
#[cfg_attr(not(test), allow(dead_code))]
struct Layout {
    net: Net,
    solid: Solid,
    /// Per net face: its face of the solid, and the solid's vertex at each outline point.
    placed: Vec<(usize, Vec<usize>)>,
}

fn layout(die: Die, edge_mm: f64) -> Layout {
    let solid = solid(die, edge_mm);
    let (angle, steps) = plan(die);
    // Per net face: its solid face, the edge it was reached through, its points in the solid
    // face's vertex order (anticlockwise on screen: the net is seen from outside the die).
    let first: Vec<V2> = solid
        .flat(0)
        .into_iter()
        .map(|p| rot(p, angle.to_radians()))
        .collect();
    let mut placed = vec![(0, 0, first)];
    let mut folds = Vec::new();
    for step in steps.split(' ').map(str::as_bytes) {
        let (p, k) = ((step[0] - b'0') as usize, (step[1] - b'0') as usize);
        let (f, entry, pts) = &placed[p];
        let m = pts.len();
        let j = (entry + k) % m;
        let (a, b) = (pts[j], pts[(j + 1) % m]);
        let (g, i) = solid.across(solid.f[*f][j], solid.f[*f][(j + 1) % m]);
        assert!(
            placed.iter().all(|q| q.0 != g),
            "{die:?}: step ({p}, {k}) reaches a face twice"
        );
        // Face g is laid on the other side of the edge: its vertex i on b, i + 1 on a.
        let flat = solid.flat(g);
        let (fb, fa) = (flat[i], flat[(i + 1) % flat.len()]);
        let angle = |v: V2| v[1].atan2(v[0]);
        let turn = angle(sub(a, b)) - angle(sub(fa, fb));
        let pts = flat
            .iter()
            .map(|&q| add(b, rot(sub(q, fb), turn)))
            .collect();
        folds.push((key(solid.f[*f][j], solid.f[*f][(j + 1) % m]), a, b));
        placed.push((g, i, pts));
    }

    // Each solid edge not folded is cut twice, on two faces: a tab on one, glued under the other.
    let mut cut: Vec<((usize, usize), V2, V2)> = Vec::new();
    for (f, _, pts) in &placed {
        let m = pts.len();
        for j in 0..m {
            let edge = key(solid.f[*f][j], solid.f[*f][(j + 1) % m]);
            if folds.iter().all(|fold| fold.0 != edge) {
                cut.push((edge, pts[j], pts[(j + 1) % m]));
            }
        }
    }
    let polygons: Vec<Vec<V2>> = placed.iter().map(|q| q.2.clone()).collect();
    let mut tabs: Vec<Vec<V2>> = Vec::new();
    for (x, &(edge, a, b)) in cut.iter().enumerate() {
        let Some(&(_, c, d)) = cut[x + 1..].iter().find(|other| other.0 == edge) else {
            continue;
        };
        // The biggest tab that overlaps nothing, on either edge; a steeper one fits where the
        // net leaves a narrow gap at a vertex (36° between two petals of a d12's flower).
        let chosen = [45.0, 30.0, 20.0]
            .iter()
            .flat_map(|&slope| [tab(a, b, slope, edge_mm), tab(c, d, slope, edge_mm)])
            .find(|t| {
                polygons
                    .iter()
                    .chain(&tabs)
                    .all(|q| overlap(t, q) < 1e-6 * edge_mm)
            });
        tabs.push(chosen.unwrap_or_else(|| tab(a, b, 20.0, edge_mm)));
    }

    // Translate so the bounding box of faces and tabs starts at (0, 0).
    let points: Vec<&V2> = polygons.iter().chain(&tabs).flatten().collect();
    let min = [0, 1].map(|i| points.iter().map(|p| p[i]).fold(f64::INFINITY, f64::min));
    let max = [0, 1].map(|i| {
        points
            .iter()
            .map(|p| p[i])
            .fold(f64::NEG_INFINITY, f64::max)
    });
    let at = |p: V2| point(sub(p, min));
    let numbers = numbers(&solid);
    let faces = placed
        .iter()
        .map(|(f, _, pts)| {
            let outline: Vec<V2> = pts.iter().rev().copied().collect();
            let (centre, rotation, size) = content(&outline);
            NetFace {
                face: numbers[*f],
                outline: outline.into_iter().map(at).collect(),
                centre: at(centre),
                rotation,
                size,
            }
        })
        .collect();
    let net = Net {
        faces,
        tabs: tabs
            .into_iter()
            .map(|t| t.into_iter().map(at).collect())
            .collect(),
        folds: folds.iter().map(|&(_, a, b)| (at(a), at(b))).collect(),
        width: max[0] - min[0],
        height: max[1] - min[1],
    };
    let placed = placed
        .into_iter()
        .map(|(f, _, _)| (f, solid.f[f].iter().rev().copied().collect()))
        .collect();
    Layout { net, solid, placed }
}

/// A glue tab on edge a→b of a face anticlockwise on screen, so outside the face on its right:
/// a trapezoid, clockwise on screen, whose sides leave the edge at `slope` degrees, a fifth of
/// the die's edge deep (less on a short edge).
fn tab(a: V2, b: V2, slope: f64, edge_mm: f64) -> Vec<V2> {
    let (len, t) = (dist(a, b), slope.to_radians().tan());
    let depth = (0.2 * edge_mm).min(0.4 * len * t);
    let along = scale(sub(b, a), depth / t / len);
    let out = scale([a[1] - b[1], b[0] - a[0]], depth / len);
    vec![a, b, add(b, sub(out, along)), add(a, add(out, along))]
}

/// Where a face's content goes: the centre of its inscribed circle (each face here has one:
/// regular polygons, kites), the rotation (see `NetFace::rotation`) and the circle's diameter.
fn content(p: &[V2]) -> (V2, f64, f64) {
    let n = p.len();
    let at = |i: usize| p[i % n];
    let bisector = |i: usize| add(unit(sub(at(i + n - 1), at(i))), unit(sub(at(i + 1), at(i))));
    let (d0, d1) = (bisector(0), bisector(1));
    let centre = add(p[0], scale(d0, cross(sub(p[1], p[0]), d1) / cross(d0, d1)));
    let radius = (0..n)
        .map(|i| cross(unit(sub(at(i + 1), at(i))), sub(centre, at(i))).abs())
        .fold(f64::INFINITY, f64::min);
    let lengths: Vec<f64> = (0..n).map(|i| dist(at(i), at(i + 1))).collect();
    let regular = lengths
        .iter()
        .all(|l| (l - lengths[0]).abs() < 1e-9 * lengths[0]);
    let ups: Vec<V2> = if regular {
        (0..n)
            .map(|i| sub(centre, scale(add(at(i), at(i + 1)), 0.5)))
            .collect()
    } else {
        let apex = p
            .iter()
            .copied()
            .max_by(|a, b| dist(*a, centre).total_cmp(&dist(*b, centre)));
        vec![sub(apex.unwrap(), centre)]
    };
    let rotation = ups
        .iter()
        .map(|u| (u[0].atan2(-u[1]).to_degrees() * 1e6).round() / 1e6 + 0.0)
        .min_by(|a, b| a.abs().total_cmp(&b.abs()))
        .unwrap();
    (centre, rotation, 2.0 * radius)
}

/// How deep two convex polygons overlap, by the separating axis test: 0 or less when they
/// only touch or are apart.
fn overlap(a: &[V2], b: &[V2]) -> f64 {
    let mut depth = f64::INFINITY;
    for poly in [a, b] {
        for i in 0..poly.len() {
            let e = sub(poly[(i + 1) % poly.len()], poly[i]);
            let axis = unit([-e[1], e[0]]);
            let span = |q: &[V2]| {
                q.iter()
                    .map(|&p| dot(p, axis))
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
                        (lo.min(x), hi.max(x))
                    })
            };
            let ((a0, a1), (b0, b1)) = (span(a), span(b));
            depth = depth.min(a1.min(b1) - a0.max(b0));
        }
    }
    depth
}

/// A convex solid centred on the origin: faces list vertices anticlockwise seen from outside.
struct Solid {
    v: Vec<V3>,
    f: Vec<Vec<usize>>,
}

impl Solid {
    fn normal(&self, f: usize) -> V3 {
        let [a, b, c] = [0, 1, 2].map(|i| self.v[self.f[f][i]]);
        unit(cross3(sub(b, a), sub(c, a)))
    }

    /// The face across the edge a→b of another face, and the index of b in it (b→a is its edge).
    fn across(&self, a: usize, b: usize) -> (usize, usize) {
        for (g, face) in self.f.iter().enumerate() {
            for i in 0..face.len() {
                if face[i] == b && face[(i + 1) % face.len()] == a {
                    return (g, i);
                }
            }
        }
        unreachable!("a closed solid has a face on each side of every edge")
    }

    /// Face f in its plane, as seen from outside on a screen (y down): vertex 0 at the origin,
    /// edge 0 along +x, the vertices anticlockwise.
    fn flat(&self, f: usize) -> Vec<V2> {
        let o = self.v[self.f[f][0]];
        let u = unit(sub(self.v[self.f[f][1]], o));
        let w = cross3(self.normal(f), u);
        self.f[f]
            .iter()
            .map(|&i| [dot(sub(self.v[i], o), u), -dot(sub(self.v[i], o), w)])
            .collect()
    }
}

/// The die as a solid whose longest edge is `edge_mm`.
fn solid(die: Die, edge_mm: f64) -> Solid {
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    let sign = |bit: usize| if bit == 0 { 1.0 } else { -1.0 };
    let cube = (0..8).map(|i| [sign(i & 1), sign(i & 2), sign(i & 4)]);
    // The cyclic permutations of (0, ±a, ±b).
    let cyclic = |a: f64, b: f64| {
        (0..4).flat_map(move |i| {
            let (p, q) = (a * sign(i & 1), b * sign(i & 2));
            [[0.0, p, q], [q, 0.0, p], [p, q, 0.0]]
        })
    };
    let v: Vec<V3> = match die {
        Die::D4 => vec![
            [1.0, 1.0, 1.0],
            [1.0, -1.0, -1.0],
            [-1.0, 1.0, -1.0],
            [-1.0, -1.0, 1.0],
        ],
        Die::D6 => cube.collect(),
        Die::D8 => (0..6)
            .map(|i| {
                let mut p = [0.0; 3];
                p[i / 2] = sign(i & 1);
                p
            })
            .collect(),
        Die::D10 => trapezohedron(),
        Die::D12 => cube.chain(cyclic(1.0 / phi, phi)).collect(),
        Die::D20 => cyclic(1.0, phi).collect(),
    };
    let mut solid = hull(v);
    let face = &solid.f[0];
    let longest =
        (0..face.len()).map(|i| dist(solid.v[face[i]], solid.v[face[(i + 1) % face.len()]]));
    let k = edge_mm / longest.fold(0.0, f64::max);
    solid.v.iter_mut().for_each(|p| *p = scale(*p, k));
    solid
}

/// The regular pentagonal trapezohedron: the polar dual of the uniform pentagonal antiprism.
/// The antiprism's two pentagons give the poles, its ten triangles the zigzag vertices between.
/// Its faces are kites with a 36° angle at the pole and 108° at the other three corners, the
/// two edges at the pole 1/φ² ≈ 0.382 times as long as the other two (both worked out
/// from these coordinates, and held by the tests).
fn trapezohedron() -> Vec<V3> {
    let t = std::f64::consts::PI / 5.0;
    let r = 0.5 / t.sin(); // a pentagon of side 1
    let h = (1.0 - (2.0 * r * (t / 2.0).sin()).powi(2)).sqrt() / 2.0; // half the height, sides 1
    // The antiprism's vertices zigzag: k × 36° round, top and bottom in turn.
    let a = |k: usize| {
        [
            r * (t * k as f64).cos(),
            r * (t * k as f64).sin(),
            if k.is_multiple_of(2) { h } else { -h },
        ]
    };
    let polar = |p: V3, q: V3, s: V3| {
        let n = cross3(sub(q, p), sub(s, p));
        n.map(|x| x / dot(n, p))
    };
    let mut v = vec![[0.0, 0.0, 1.0 / h], [0.0, 0.0, -1.0 / h]];
    v.extend((0..10).map(|k| polar(a(k), a(k + 1), a(k + 2))));
    v
}

/// The faces of the convex hull of `v` (no three of its points on a line): the planes through
/// three points with every point on one side, each face found from its three lowest vertices.
fn hull(v: Vec<V3>) -> Solid {
    let n = v.len();
    let mut faces = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                let mut normal = unit(cross3(sub(v[j], v[i]), sub(v[k], v[i])));
                let side: Vec<f64> = v.iter().map(|&p| dot(normal, sub(p, v[i]))).collect();
                if side.iter().all(|&s| s > -1e-9) {
                    normal = normal.map(|x| -x);
                } else if side.iter().any(|&s| s > 1e-9) {
                    continue;
                }
                let mut face: Vec<usize> = (0..n).filter(|&m| side[m].abs() < 1e-9).collect();
                if face[..3] != [i, j, k] {
                    continue;
                }
                // Anticlockwise round the outward normal, from the lowest vertex.
                let c = mean(&face.iter().map(|&m| v[m]).collect::<Vec<_>>());
                let (u, w) = (sub(v[i], c), cross3(normal, sub(v[i], c)));
                let turn = |m: &usize| {
                    let a = dot(sub(v[*m], c), w).atan2(dot(sub(v[*m], c), u));
                    (a + 1e-9).rem_euclid(std::f64::consts::TAU)
                };
                face.sort_by(|x, y| turn(x).total_cmp(&turn(y)));
                faces.push(face);
            }
        }
    }
    Solid { v, f: faces }
}

/// Face numbers: the faces of the solid in order, and with each its opposite face (the normal
/// reversed) numbered from the other end, so opposite faces sum to `sides - 1`. Which numbers
/// sit round a vertex, and which way round, follow no manufacturer's convention (the d10's
/// top pole gets 0–4 and the bottom 5–9, where bought d10s alternate odd and even).
fn numbers(solid: &Solid) -> Vec<usize> {
    let n = solid.f.len();
    let mut number = vec![usize::MAX; n];
    let mut next = 0;
    for f in 0..n {
        if number[f] == usize::MAX {
            number[f] = next;
            if let Some(g) = (0..n).find(|&g| dot(solid.normal(f), solid.normal(g)) < -1.0 + 1e-9) {
                number[g] = n - 1 - next;
            }
            next += 1;
        }
    }
    number
}

type V2 = [f64; 2];
type V3 = [f64; 3];

fn point(p: V2) -> Point {
    Point { x: p[0], y: p[1] }
}
fn key(a: usize, b: usize) -> (usize, usize) {
    (a.min(b), a.max(b))
}
fn add<const N: usize>(a: [f64; N], b: [f64; N]) -> [f64; N] {
    std::array::from_fn(|i| a[i] + b[i])
}
fn sub<const N: usize>(a: [f64; N], b: [f64; N]) -> [f64; N] {
    std::array::from_fn(|i| a[i] - b[i])
}
fn scale<const N: usize>(a: [f64; N], k: f64) -> [f64; N] {
    a.map(|x| x * k)
}
fn dot<const N: usize>(a: [f64; N], b: [f64; N]) -> f64 {
    (0..N).map(|i| a[i] * b[i]).sum()
}
fn dist<const N: usize>(a: [f64; N], b: [f64; N]) -> f64 {
    dot(sub(a, b), sub(a, b)).sqrt()
}
fn unit<const N: usize>(a: [f64; N]) -> [f64; N] {
    scale(a, 1.0 / dot(a, a).sqrt())
}
fn mean<const N: usize>(p: &[[f64; N]]) -> [f64; N] {
    scale(
        p.iter().fold([0.0; N], |s, &q| add(s, q)),
        1.0 / p.len() as f64,
    )
}
fn cross(a: V2, b: V2) -> f64 {
    a[0] * b[1] - a[1] * b[0]
}
fn cross3(a: V3, b: V3) -> V3 {
    std::array::from_fn(|i| a[(i + 1) % 3] * b[(i + 2) % 3] - a[(i + 2) % 3] * b[(i + 1) % 3])
}
/// Turned by `t` radians, clockwise on screen.
fn rot(a: V2, t: f64) -> V2 {
    let (s, c) = t.sin_cos();
    [a[0] * c - a[1] * s, a[0] * s + a[1] * c]
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [Die; 6] = [Die::D4, Die::D6, Die::D8, Die::D10, Die::D12, Die::D20];
    const EPS: f64 = 1e-6;

    fn layouts() -> impl Iterator<Item = (Die, Layout)> {
        ALL.into_iter()
            .map(|die| (die, layout(die, default_edge(die))))
    }
    /// Twice the signed area: positive when clockwise on screen.
    fn area(p: &[V2]) -> f64 {
        (0..p.len())
            .map(|i| cross(p[i], p[(i + 1) % p.len()]))
            .sum()
    }
    fn poly(p: &[Point]) -> Vec<V2> {
        p.iter().map(|p| [p.x, p.y]).collect()
    }
    /// Whether segments a–b and c–d are the same, either way round.
    fn same(a: V2, b: V2, c: V2, d: V2) -> bool {
        (dist(a, c) < EPS && dist(b, d) < EPS) || (dist(a, d) < EPS && dist(b, c) < EPS)
    }

    #[test]
    fn faces_are_numbered_once_each_and_nothing_overlaps() {
        for (die, l) in layouts() {
            let mut numbers: Vec<usize> = l.net.faces.iter().map(|f| f.face).collect();
            numbers.sort();
            assert_eq!(numbers, (0..die.sides()).collect::<Vec<_>>(), "{die:?}");
            let faces = l.net.faces.iter().map(|f| poly(&f.outline));
            let all: Vec<Vec<V2>> = faces.chain(l.net.tabs.iter().map(|t| poly(t))).collect();
            for (i, a) in all.iter().enumerate() {
                assert!(area(a) > 0.0, "{die:?}: {i} is anticlockwise");
                for (j, b) in all.iter().enumerate().skip(i + 1) {
                    assert!(overlap(a, b) < EPS, "{die:?}: polygons {i} and {j} overlap");
                }
            }
        }
    }

    #[test]
    fn folds_and_tabs_pair_up_every_edge() {
        for (die, l) in layouts() {
            let net = &l.net;
            let edges = [6, 12, 12, 20, 30, 30][ALL.iter().position(|&d| d == die).unwrap()];
            assert_eq!(net.folds.len(), die.sides() - 1, "{die:?}: not a tree");
            assert_eq!(net.folds.len() + net.tabs.len(), edges, "{die:?}");
            // Every face edge on paper, with the solid edge it is.
            let mut all = Vec::new();
            for (face, (_, ids)) in net.faces.iter().zip(&l.placed) {
                let (p, m) = (poly(&face.outline), ids.len());
                all.extend((0..m).map(|j| (key(ids[j], ids[(j + 1) % m]), p[j], p[(j + 1) % m])));
            }
            let mut cut = Vec::new();
            for (x, &(edge, a, b)) in all.iter().enumerate() {
                let twin = |&(y, e): &(usize, &(_, V2, V2))| y != x && same(a, b, e.1, e.2);
                match all.iter().enumerate().filter(twin).collect::<Vec<_>>()[..] {
                    [] => cut.push((edge, a, b)),
                    // Shared on paper: a fold, listed, and the same edge of the solid on both faces.
                    [(_, other)] => {
                        assert_eq!(other.0, edge, "{die:?}: a fold between unlike edges");
                        let fold = |(p, q): &(Point, Point)| same([p.x, p.y], [q.x, q.y], a, b);
                        assert!(net.folds.iter().any(fold), "{die:?}: fold not listed");
                    }
                    _ => panic!("{die:?}: three faces on one edge"),
                }
            }
            assert_eq!(all.len() - cut.len(), 2 * net.folds.len(), "{die:?}");
            // Cut edges pair up on the solid's edges, of equal length, one of each pair tabbed.
            assert_eq!(cut.len(), 2 * net.tabs.len(), "{die:?}");
            let tabs: Vec<Vec<V2>> = net.tabs.iter().map(|t| poly(t)).collect();
            let tabbed = |a: V2, b: V2| tabs.iter().filter(|t| same(t[0], t[1], a, b)).count();
            for (x, &(edge, a, b)) in cut.iter().enumerate() {
                let partner = |&(y, e): &(usize, &(_, V2, V2))| y != x && e.0 == edge;
                let partners: Vec<_> = cut.iter().enumerate().filter(partner).collect();
                let [(_, &(_, c, d))] = partners[..] else {
                    panic!("{die:?}: {partners:?}")
                };
                assert!(
                    (dist(a, b) - dist(c, d)).abs() < EPS,
                    "{die:?}: unlike lengths"
                );
                assert_eq!(tabbed(a, b) + tabbed(c, d), 1, "{die:?}: {a:?}–{b:?} tabs");
            }
            let on_cut = |t: &Vec<V2>| cut.iter().any(|&(_, a, b)| same(t[0], t[1], a, b));
            assert!(tabs.iter().all(on_cut), "{die:?}: a tab on no cut edge");
        }
    }

    /// Each face on paper is its face of the solid, vertex for vertex (all distances kept) and
    /// seen from outside (the outline, clockwise on screen, is the solid's vertex order reversed,
    /// which is anticlockwise round the outward normal). With the folds joining the same edges
    /// (above), the net folds into the solid, printed side out.
    #[test]
    fn folding_the_net_makes_the_die() {
        for (die, l) in layouts() {
            for (face, (f, ids)) in l.net.faces.iter().zip(&l.placed) {
                let cycle = &l.solid.f[*f];
                assert!(
                    dot(l.solid.normal(*f), l.solid.v[cycle[0]]) > 0.0,
                    "{die:?}"
                );
                let start = cycle.iter().position(|&v| v == ids[ids.len() - 1]).unwrap();
                let at = |i: usize| cycle[(start + i) % cycle.len()];
                assert!(
                    ids.iter().rev().enumerate().all(|(i, &v)| at(i) == v),
                    "{die:?}"
                );
                let p = poly(&face.outline);
                for (i, j) in (0..p.len()).flat_map(|i| (0..p.len()).map(move |j| (i, j))) {
                    let d = dist(l.solid.v[ids[i]], l.solid.v[ids[j]]);
                    assert!(
                        (dist(p[i], p[j]) - d).abs() < EPS,
                        "{die:?}: face distorted"
                    );
                }
            }
        }
    }

    #[test]
    fn opposite_faces_sum_to_sides_minus_one() {
        for (die, l) in layouts().filter(|(die, _)| *die != Die::D4) {
            let n = die.sides();
            let normal = |face: usize| {
                let i = l.net.faces.iter().position(|f| f.face == face).unwrap();
                l.solid.normal(l.placed[i].0)
            };
            for i in 0..n {
                assert!(
                    dot(normal(i), normal(n - 1 - i)) < -1.0 + 1e-9,
                    "{die:?}: {i}"
                );
            }
        }
    }

    #[test]
    fn the_bounding_box_starts_at_zero_and_holds_everything() {
        for (die, l) in layouts() {
            let net = &l.net;
            let shapes = net.faces.iter().map(|f| &f.outline).chain(&net.tabs);
            let points: Vec<V2> = shapes.flat_map(|p| poly(p)).collect();
            let extent =
                |i: usize, m: fn(f64, f64) -> f64| points.iter().map(|p| p[i]).reduce(m).unwrap();
            assert!(
                extent(0, f64::min).abs() < EPS && extent(1, f64::min).abs() < EPS,
                "{die:?}"
            );
            let (width, height) = (extent(0, f64::max), extent(1, f64::max));
            assert!(
                (width - net.width).abs() < EPS && (height - net.height).abs() < EPS,
                "{die:?}"
            );
            let inside = |p: &Point| {
                (-EPS..net.width + EPS).contains(&p.x) && (-EPS..net.height + EPS).contains(&p.y)
            };
            assert!(
                net.folds.iter().all(|(a, b)| inside(a) && inside(b)),
                "{die:?}"
            );
            assert!(net.faces.iter().all(|f| inside(&f.centre)), "{die:?}");
            // Each fits a page of A4 or Letter inside 6.35 mm margins.
            let (long, short) = (net.width.max(net.height), net.width.min(net.height));
            assert!(long < 266.0 && short < 203.0, "{die:?}: {long} × {short}");
        }
    }

    /// The content's circle touches every edge (each face has an inscribed circle), and the
    /// content points away from an edge, or on the d10 to the 36° apex.
    #[test]
    fn content_sits_in_the_face() {
        for (die, l) in layouts() {
            for face in &l.net.faces {
                let (p, c, n) = (
                    poly(&face.outline),
                    [face.centre.x, face.centre.y],
                    face.outline.len(),
                );
                for i in 0..n {
                    let d = cross(unit(sub(p[(i + 1) % n], p[i])), sub(c, p[i]));
                    assert!((d - face.size / 2.0).abs() < EPS, "{die:?}: off edge {i}");
                }
                let up = rot([0.0, -1.0], face.rotation.to_radians());
                let off_edge = |i: usize| sub(c, mean(&[p[i], p[(i + 1) % n]]));
                let aims = |i: usize| {
                    unit(if die == Die::D10 {
                        sub(p[i], c)
                    } else {
                        off_edge(i)
                    })
                };
                assert!(
                    (0..n).any(|i| dist(aims(i), up) < EPS),
                    "{die:?}: {}",
                    face.rotation
                );
            }
        }
        assert!(net(Die::D6, 25.0).faces.iter().all(|f| f.rotation == 0.0));
    }

    #[test]
    fn stickers_stand_on_their_base_edge() {
        for die in ALL {
            let (outline, size) = sticker(die, 20.0);
            let (p, n) = (poly(&outline), outline.len());
            assert_eq!(n, net(die, 20.0).faces[0].outline.len());
            assert!(area(&p) > 0.0);
            for i in 0..n {
                let d = cross(unit(sub(p[(i + 1) % n], p[i])), scale(p[i], -1.0));
                assert!((d - size / 2.0).abs() < EPS, "{die:?}: off centre");
            }
            let bottom = p.iter().map(|q| q[1]).fold(f64::NEG_INFINITY, f64::max);
            let on_bottom = p.iter().filter(|q| (q[1] - bottom).abs() < EPS).count();
            if die == Die::D10 {
                // A kite standing on its obtuse corner, the 36° apex straight up.
                let top = p.iter().min_by(|a, b| a[1].total_cmp(&b[1])).unwrap();
                assert!(top[0].abs() < EPS && on_bottom == 1);
            } else {
                assert!(
                    on_bottom == 2 && (bottom - size / 2.0).abs() < EPS,
                    "{die:?}"
                );
            }
        }
    }

    #[test]
    fn the_d10_kite() {
        let p = poly(&sticker(Die::D10, 24.0).0);
        let side = |i: usize, j: usize| sub(p[j % 4], p[i % 4]);
        let angle = |i: usize| {
            dot(unit(side(i, i + 3)), unit(side(i, i + 1)))
                .acos()
                .to_degrees()
        };
        let mut angles: Vec<f64> = (0..4).map(|i| (angle(i) * 1e6).round() / 1e6).collect();
        angles.sort_by(f64::total_cmp);
        assert_eq!(angles, [36.0, 108.0, 108.0, 108.0]);
        let mut lengths: Vec<f64> = (0..4)
            .map(|i| (dot(side(i, i + 1), side(i, i + 1)).sqrt() * 1e6).round() / 1e6)
            .collect();
        lengths.sort_by(f64::total_cmp);
        let short = 24.0 * (3.0 - 5f64.sqrt()) / 2.0; // 24 / φ², φ² = (3 + √5) / 2
        assert_eq!(
            lengths,
            [
                (short * 1e6).round() / 1e6,
                (short * 1e6).round() / 1e6,
                24.0,
                24.0
            ]
        );
    }
}
