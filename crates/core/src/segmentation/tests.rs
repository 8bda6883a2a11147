//! The cut against the recurrence written out cell by cell, with each cell's origin carried
//! forward (the textbook way, a full table per segment), on random cases: several
//! references, segments longer than a machine word, empty segments, an empty hypothesis.

use super::*;
use crate::testing::Rng;

/// Every cell's cost and the top-row position its path left from, per segment; the ends
/// traced back from the last segment.
fn by_the_table(refs: &Refs, hyp: &[u32], method: Method) -> Vec<usize> {
    let segments = refs[0].len();
    let mut row: Vec<i32> = (0..=hyp.len() as i32).collect();
    let mut origins: Vec<Vec<usize>> = Vec::new();
    for k in 0..segments {
        let mut best: Option<(Vec<i32>, Vec<usize>)> = None;
        for reference in refs {
            let (mut d, mut o) = (row.clone(), (0..=hyp.len()).collect::<Vec<_>>());
            for &word in &reference[k] {
                let (mut nd, mut no) = (vec![d[0] + 1], vec![o[0]]);
                for j in 1..=hyp.len() {
                    // The cell above, then the one to the left, then the diagonal.
                    let candidates = [
                        (d[j] + 1, o[j]),
                        (nd[j - 1] + 1, no[j - 1]),
                        (d[j - 1] + i32::from(word != hyp[j - 1]), o[j - 1]),
                    ];
                    let mut chosen = candidates[0];
                    for c in &candidates[1..] {
                        if c.0 < chosen.0 {
                            chosen = *c;
                        }
                    }
                    nd.push(chosen.0);
                    no.push(chosen.1);
                }
                (d, o) = (nd, no);
            }
            best = Some(match best {
                None => (d, o),
                Some((bd, bo)) => {
                    let pick = |j: usize| {
                        if d[j] < bd[j] {
                            (d[j], o[j])
                        } else {
                            (bd[j], bo[j])
                        }
                    };
                    (0..=hyp.len()).map(pick).unzip()
                }
            });
        }
        let (mut d, o) = best.unwrap();
        d[0] += method.empty_start();
        row = d;
        origins.push(o);
    }
    let mut ends = vec![hyp.len(); segments];
    for k in (1..segments).rev() {
        ends[k - 1] = origins[k][ends[k]];
    }
    ends
}

fn random_case(rng: &mut Rng) -> (Vec<Vec<Vec<u32>>>, Vec<u32>) {
    let vocabulary = [2, 3, 5, 8][rng.below(4)];
    let segments = 1 + rng.below(7);
    let long = rng.below(10) == 0;
    let references = if rng.below(4) == 0 { 2 } else { 1 };
    let refs: Vec<Vec<Vec<u32>>> = (0..references)
        .map(|_| {
            (0..segments)
                .map(|_| {
                    let len = if long {
                        60 + rng.below(80)
                    } else {
                        rng.below(7)
                    };
                    (0..len).map(|_| rng.below(vocabulary) as u32).collect()
                })
                .collect()
        })
        .collect();
    let mut hyp = Vec::new();
    for &word in refs[0].iter().flatten() {
        match rng.below(10) {
            0 => {}
            1 => hyp.push(rng.below(vocabulary) as u32),
            2 => hyp.extend([word, rng.below(vocabulary) as u32]),
            _ => hyp.push(word),
        }
    }
    (refs, hyp)
}

#[test]
fn the_cut_equals_the_full_tables_on_random_cases() {
    let mut rng = Rng(2005);
    for case in 0..1000 {
        let (refs, hyp) = random_case(&mut rng);
        for method in [Method::Mweralign, Method::MinEdit] {
            let got = cut(&refs, &hyp, 8, method, &mut |_| false).unwrap();
            assert_eq!(
                got,
                by_the_table(&refs, &hyp, method),
                "case {case}, {method:?}: {refs:?} / {hyp:?}"
            );
        }
    }
}

#[test]
fn mwer_aligns_insertions_at_a_boundary_with_the_segment_before() {
    let refs = [vec!["a b", "c d"]];
    let got = resegment(
        &refs,
        "A b X c d",
        (Split::Ascii, Case::Ascii),
        Method::Mweralign,
        &mut |_| false,
    )
    .unwrap();
    assert_eq!(got, ["A b X", "c d"]);
    // Case-sensitive, "A" is an error: the cut is the same, the words as written.
    let got = resegment(
        &refs,
        "A  b\tX c d",
        (Split::Ascii, Case::Sensitive),
        Method::Mweralign,
        &mut |_| false,
    );
    assert_eq!(got.unwrap(), ["A b X", "c d"]);
}

#[test]
fn ascii_folding_leaves_umlauts_apart_and_unicode_folding_joins_them() {
    // Lowercased as Python does, "über" is "Über": the cut is after "y" ("z" deleted). As
    // mweralign folds (ASCII only), the two cuts cost 2 each, and the tie puts "über" in the
    // first segment, in place of "z" (mweralign cuts it so).
    let refs = [vec!["x y z", "Über b"]];
    let cut = |case| {
        let words = (Split::Ascii, case);
        resegment(&refs, "x y über b", words, Method::Mweralign, &mut |_| {
            false
        })
        .unwrap()
    };
    assert_eq!(cut(Case::Unicode), ["x y", "über b"]);
    assert_eq!(cut(Case::Ascii), ["x y über", "b"]);
}

#[test]
fn ascii_whitespace_keeps_a_non_breaking_space_inside_a_word() {
    let refs = [vec!["x y z", "a b"]];
    let cut = |split| {
        let words = (split, Case::Ascii);
        resegment(&refs, "x y a\u{a0}b", words, Method::Mweralign, &mut |_| {
            false
        })
        .unwrap()
    };
    assert_eq!(cut(Split::Ascii), ["x y a\u{a0}b", ""]); // as mweralign cuts it
    assert_eq!(cut(Split::Unicode), ["x y", "a b"]);
}

#[test]
fn characters_cut_inside_words_and_keep_the_text_as_written() {
    let refs = [vec!["我喜欢猫", "它很可爱"], vec!["thecat", "sat on it"]];
    let zh = |hyp| {
        resegment(
            &refs[..1],
            hyp,
            (Split::Chars, Case::Ascii),
            Method::Mweralign,
            &mut |_| false,
        )
    };
    assert_eq!(zh("我喜欢狗它很可爱").unwrap(), ["我喜欢狗", "它很可爱"]);
    let en = resegment(
        &refs[1..],
        "the cats at  on it",
        (Split::Chars, Case::Ascii),
        Method::Mweralign,
        &mut |_| false,
    );
    assert_eq!(en.unwrap(), ["the cat", "s at on it"]);
}

#[test]
fn mweralign_costs_one_more_for_a_segment_ending_before_the_first_word() {
    // The least cost leaves the first segment empty ("e" deleted: 1 edit); mweralign's
    // extra cost makes "a" the first segment (2 edits).
    let refs = [vec!["e", "a d b"]];
    let mwer = resegment(
        &refs,
        "a d b",
        (Split::Ascii, Case::Ascii),
        Method::Mweralign,
        &mut |_| false,
    )
    .unwrap();
    let least = resegment(
        &refs,
        "a d b",
        (Split::Ascii, Case::Ascii),
        Method::MinEdit,
        &mut |_| false,
    )
    .unwrap();
    assert_eq!(
        (mwer, least),
        (
            vec!["a".to_string(), "d b".into()],
            vec![String::new(), "a d b".into()]
        )
    );
}

#[test]
fn an_empty_hypothesis_gives_empty_segments_and_ctrl_c_stops() {
    let refs = [vec!["a", "", "b c"]];
    assert_eq!(
        resegment(
            &refs,
            " ",
            (Split::Ascii, Case::Ascii),
            Method::Mweralign,
            &mut |_| false
        )
        .unwrap(),
        ["", "", ""]
    );
    let stopped = resegment(
        &refs,
        "a b c",
        (Split::Ascii, Case::Ascii),
        Method::Mweralign,
        &mut |_| true,
    );
    assert_eq!(stopped, Err(CoreError::Interrupted));
    // Every segment counts twice (forward, then traced back): the caller sees all of it.
    let mut done = 0;
    let refs = [vec!["a"; 200]];
    resegment(
        &refs,
        "a a a",
        (Split::Ascii, Case::Ascii),
        Method::Mweralign,
        &mut |n| {
            done += n;
            false
        },
    )
    .unwrap();
    assert_eq!(done, 400);
    let uneven = [vec!["a"], vec!["a", "b"]];
    assert!(matches!(
        resegment(
            &uneven,
            "a b",
            (Split::Ascii, Case::Ascii),
            Method::Mweralign,
            &mut |_| { false }
        ),
        Err(CoreError::LengthMismatch { .. })
    ));
}
