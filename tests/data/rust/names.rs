use std::collections::HashMap;
#[inline(never)]
fn work(m: &mut HashMap<String, u64>, n: u64) -> u64 { let mut s = 0; for i in 0..n { let k = format!("k{}", i % 100); *m.entry(k).or_insert(0) += i; s += i; } s }
fn main() { let mut m = HashMap::new(); let mut t = 0; for _ in 0..300 { t += work(&mut m, 10000); } std::process::exit((t & 1) as i32); }
