//! The peaks of a distribution of whole numbers (final VP): a histogram of about 40 bins,
//! smoothed, and its local maxima that are high and distinct enough to be told from the
//! noise of the games. `sim`'s `vp-modes` finding and `diff`'s comparison of shapes read the
//! same peaks (docs/simulation.md, "Peaks").

/// A peak is kept when at least this share of the highest peak's height...
pub(crate) const PEAK_MIN_HEIGHT: f64 = 0.15;
/// ...and the valley between two peaks is at most this share of the lower one.
pub(crate) const VALLEY_MAX_DEPTH: f64 = 0.6;
/// A hint of a peak, enough for `diff` to hold that a version has a peak somewhere already:
/// at least this share of the highest...
pub(crate) const HINT_MIN_HEIGHT: f64 = 0.1;
/// ...with a valley down to at most this share of the lower neighbour.
pub(crate) const HINT_VALLEY_MAX_DEPTH: f64 = 0.8;
/// Each side of a split between two peaks holds at least this share of the games (in
/// `diff`, a peak's own stretch of the histogram does).
pub(crate) const MODE_MIN_MASS: f64 = 0.1;
/// Bins across the range of values, about.
const BINS_ACROSS: f64 = 40.0;
/// The smoothing: each bin takes its two neighbours on each side, weighted 1-2-3-2-1.
const KERNEL: [f64; 5] = [1.0, 2.0, 3.0, 2.0, 1.0];

/// Equal bins over a range of values.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bins {
    min: u32,
    width: f64,
    count: usize,
}

impl Bins {
    /// About 40 bins from the least value to the greatest (none when there are no values).
    pub fn over<'a>(values: impl Iterator<Item = &'a u32> + Clone) -> Option<Bins> {
        let (min, max) = (*values.clone().min()?, *values.max()?);
        let width = ((max - min + 1) as f64 / BINS_ACROSS).ceil().max(1.0);
        Some(Bins {
            min,
            width,
            count: ((max - min) as f64 / width) as usize + 1,
        })
    }

    /// How many bins there are.
    pub fn count(&self) -> usize {
        self.count
    }

    pub fn of(&self, value: u32) -> usize {
        ((value.saturating_sub(self.min)) as f64 / self.width) as usize
    }

    /// The value where a bin starts.
    pub fn start(&self, bin: usize) -> f64 {
        self.min as f64 + bin as f64 * self.width
    }

    /// The value in the middle of a bin.
    pub fn centre(&self, bin: usize) -> f64 {
        self.start(bin) + 0.5 * self.width
    }

    /// The histogram of `values` in these bins, smoothed by [`KERNEL`].
    pub(crate) fn smoothed(&self, values: &[u32]) -> Vec<f64> {
        let mut counts = vec![0.0; self.count];
        for v in values {
            if let Some(count) = counts.get_mut(self.of(*v)) {
                *count += 1.0;
            }
        }
        let total: f64 = KERNEL.iter().sum();
        (0..self.count)
            .map(|i| {
                KERNEL
                    .iter()
                    .enumerate()
                    .filter_map(|(k, w)| {
                        let j = (i + k).checked_sub(2)?;
                        counts.get(j).map(|c| c * w)
                    })
                    .sum::<f64>()
                    / total
            })
            .collect()
    }
}

/// The bin of the lowest point of `smooth` from bin `a` to bin `b` (the first, if several).
pub(crate) fn valley(smooth: &[f64], a: usize, b: usize) -> usize {
    (a..=b)
        .min_by(|x, y| smooth[*x].total_cmp(&smooth[*y]))
        .unwrap_or(a)
}

/// The bins of a smoothed histogram's peaks, left to right: its local maxima at least
/// [`PEAK_MIN_HEIGHT`] of the highest, where two neighbours without a valley down to
/// [`VALLEY_MAX_DEPTH`] of the lower between them count as one (the higher).
pub(crate) fn peaks(smooth: &[f64]) -> Vec<usize> {
    peaks_by(smooth, PEAK_MIN_HEIGHT, VALLEY_MAX_DEPTH)
}

/// [`peaks`] with the laxer [`HINT_MIN_HEIGHT`] and [`HINT_VALLEY_MAX_DEPTH`].
pub(crate) fn hints(smooth: &[f64]) -> Vec<usize> {
    peaks_by(smooth, HINT_MIN_HEIGHT, HINT_VALLEY_MAX_DEPTH)
}

fn peaks_by(smooth: &[f64], min_height: f64, valley_depth: f64) -> Vec<usize> {
    let highest = smooth.iter().copied().fold(0.0, f64::max);
    let mut peaks: Vec<usize> = (0..smooth.len())
        .filter(|i| {
            let left = if *i == 0 { 0.0 } else { smooth[i - 1] };
            let right = smooth.get(i + 1).copied().unwrap_or(0.0);
            smooth[*i] > left && smooth[*i] >= right && smooth[*i] >= min_height * highest
        })
        .collect();
    while let Some(lower) = shallow_neighbour(smooth, &peaks, valley_depth) {
        peaks.remove(lower);
    }
    peaks
}

/// Of the first two neighbouring peaks with no valley down to `depth` of the lower between
/// them, the place in `peaks` of the lower.
fn shallow_neighbour(smooth: &[f64], peaks: &[usize], depth: f64) -> Option<usize> {
    (0..peaks.len().saturating_sub(1)).find_map(|k| {
        let (a, b) = (peaks[k], peaks[k + 1]);
        let bottom = smooth[valley(smooth, a, b)];
        (bottom > depth * smooth[a].min(smooth[b])).then_some(if smooth[a] < smooth[b] {
            k
        } else {
            k + 1
        })
    })
}

/// The bins each peak holds: from the bin after the valley on its left to the valley on its
/// right (a valley's own bin goes with the peak on its left), the ends with the outer peaks.
pub(crate) fn stretches(smooth: &[f64], peaks: &[usize]) -> Vec<(usize, usize)> {
    let valleys: Vec<usize> = peaks
        .windows(2)
        .map(|w| valley(smooth, w[0], w[1]))
        .collect();
    (0..peaks.len())
        .map(|k| {
            let from = if k == 0 { 0 } else { valleys[k - 1] + 1 };
            let to = valleys.get(k).copied().unwrap_or(smooth.len() - 1);
            (from, to)
        })
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// `n` values in a triangle of half-width `spread` around `at`.
    pub(crate) fn lump(at: u32, spread: u32, n: usize) -> Vec<u32> {
        let shape: Vec<u32> = (0..=2 * spread)
            .flat_map(|d| {
                let weight = spread + 1 - d.abs_diff(spread);
                std::iter::repeat_n(at - spread + d, weight as usize)
            })
            .collect();
        shape.iter().cycle().take(n).copied().collect()
    }

    #[test]
    fn one_lump_is_one_peak_and_two_apart_are_two() {
        let one = lump(100, 20, 2000);
        let bins = Bins::over(one.iter()).unwrap();
        assert_eq!(peaks(&bins.smoothed(&one)).len(), 1);
        let mut two = lump(60, 10, 600);
        two.extend(lump(160, 10, 1400));
        let bins = Bins::over(two.iter()).unwrap();
        let smooth = bins.smoothed(&two);
        let found = peaks(&smooth);
        assert_eq!(found.len(), 2, "{smooth:?}");
        assert!((bins.centre(found[0]) - 60.0).abs() < 8.0);
        assert!((bins.centre(found[1]) - 160.0).abs() < 8.0);
        let parts = stretches(&smooth, &found);
        assert_eq!(parts[0].0, 0);
        assert_eq!(parts[1].1, smooth.len() - 1);
        assert_eq!(parts[0].1 + 1, parts[1].0);
    }
}
