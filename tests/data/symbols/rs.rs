// Symbols fixture: Rust names (legacy or v0 mangling, chosen by the build).
pub mod engine {
    pub struct Gear { pub teeth: u64 }
    impl Gear {
        #[inline(never)]
        pub fn turn(&self, n: u64) -> u64 { (0..n).fold(self.teeth, |a, b| a.wrapping_mul(31).wrapping_add(b)) }
    }
    #[inline(never)]
    pub fn run<T: Into<u64>>(x: T) -> u64 { let g = Gear { teeth: x.into() }; g.turn(1000) }
}

fn main() {
    let n = std::env::args().count() as u64;
    println!("{}", engine::run(n));
}
