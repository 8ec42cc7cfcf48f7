//! PEXT (gather the bits of a word selected by a mask into its low bits): the BMI2 instruction,
//! and the run-time choice between the PEXT-indexed tables and the portable lookup (the
//! obstruction difference, see `slider`) ([`slider_path`]), so that one binary runs on every
//! x86-64 CPU.

use std::sync::atomic::{AtomicU8, Ordering};

/// How the rank and diagonal lookups gather a line's occupancy into a table index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SliderPath {
    /// BMI2's PEXT instruction: one instruction per board half.
    Pext,
    /// The obstruction difference (see `slider`): a few integer operations, no table.
    Portable,
}

impl SliderPath {
    /// The name used by `TSUMUGI_PEXT` and printed by `tsumugi bench`.
    pub fn name(self) -> &'static str {
        match self {
            SliderPath::Pext => "pext",
            SliderPath::Portable => "portable",
        }
    }
}

// The path in force, chosen once per process (`choose_path`): the binary is built for the
// x86-64 baseline, so whether PEXT may be used is known only at run time. A relaxed load of a
// byte that never changes once chosen stays in L1 and its branch is always predicted
// the same way: measured against a build with PEXT compiled in, see docs/release.md.
pub(super) const PATH_UNKNOWN: u8 = 0;
const PATH_PORTABLE: u8 = 1;
const PATH_PEXT: u8 = 2;
pub(super) static PATH: AtomicU8 = AtomicU8::new(PATH_UNKNOWN);

/// The slider path this process uses, chosen at the first call: the binary makes it when it
/// starts (`cli::run`) and every `mate::Solver::new` makes sure of it. Until then lookups take
/// the portable path, which gives the same attacks: the hot path tests one byte for PEXT and
/// has no "not chosen yet" branch.
pub fn slider_path() -> SliderPath {
    let mut p = PATH.load(Ordering::Relaxed);
    if p == PATH_UNKNOWN {
        p = choose_path();
    }
    if p == PATH_PEXT {
        SliderPath::Pext
    } else {
        SliderPath::Portable
    }
}

/// Sets the slider path, for tests and benchmarks that compare the two. PEXT is taken only if
/// the CPU has BMI2 (else the portable path stays); returns the path now in force. Both paths
/// give the same attacks, so a search running meanwhile is unaffected apart from its speed.
pub fn set_slider_path(want: SliderPath) -> SliderPath {
    let code = match want {
        SliderPath::Pext if cpu_has_bmi2() => PATH_PEXT,
        _ => PATH_PORTABLE,
    };
    PATH.store(code, Ordering::Relaxed);
    slider_path()
}

/// Whether lookups use the PEXT instruction (the path was chosen, and chose it).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) fn use_pext() -> bool {
    PATH.load(Ordering::Relaxed) == PATH_PEXT
}

/// The choice, made by the first [`slider_path`]: `TSUMUGI_PEXT=off` forces the portable path, `on` takes PEXT
/// whenever the CPU has BMI2, and anything else (or unset) takes it where it is fast.
/// Threads racing here all compute the same value.
#[cold]
#[inline(never)]
fn choose_path() -> u8 {
    let setting = std::env::var("TSUMUGI_PEXT").unwrap_or_default();
    let pext = match setting.to_ascii_lowercase().as_str() {
        "off" | "0" | "no" => false,
        "on" | "1" | "yes" => cpu_has_bmi2(),
        "" | "auto" => cpu_has_bmi2() && pext_is_fast(),
        other => {
            log::warn!("TSUMUGI_PEXT={other} is not on, off or auto; using auto");
            cpu_has_bmi2() && pext_is_fast()
        }
    };
    let code = if pext { PATH_PEXT } else { PATH_PORTABLE };
    PATH.store(code, Ordering::Relaxed);
    log::debug!("slider lookup: {}", if pext { "pext" } else { "portable" });
    code
}

#[cfg(target_arch = "x86_64")]
pub(super) fn cpu_has_bmi2() -> bool {
    std::arch::is_x86_feature_detected!("bmi2")
}

#[cfg(not(target_arch = "x86_64"))]
pub(super) fn cpu_has_bmi2() -> bool {
    false
}

/// Whether PEXT is executed in hardware. AMD's Zen, Zen+ and Zen 2 (family 17h) and Hygon's
/// Dhyana (18h, a Zen derivative), as well as the earlier BMI2 cores of family 15h, report BMI2
/// but run PEXT as microcode whose latency grows with the number of mask bits: about 18 cycles
/// at best and a few hundred at worst (Agner Fog's instruction tables; uops.info), against 3
/// cycles on every Intel core with BMI2 (Haswell on) and on AMD from Zen 3 (family 19h). There
/// the portable path (the obstruction difference in `slider`, a few integer operations) wins,
/// so those families take it (`TSUMUGI_PEXT=on` overrides this, to measure).
#[cfg(target_arch = "x86_64")]
fn pext_is_fast() -> bool {
    use std::arch::x86_64::__cpuid;
    // SAFETY: CPUID exists on every x86-64 CPU; leaves 0 and 1 are always defined. (`__cpuid`
    // is a safe function in newer Rust, hence the allow.)
    #[allow(unused_unsafe)]
    let (l0, l1) = unsafe { (__cpuid(0), __cpuid(1)) };
    let mut vendor = [0u8; 12];
    vendor[..4].copy_from_slice(&l0.ebx.to_le_bytes());
    vendor[4..8].copy_from_slice(&l0.edx.to_le_bytes());
    vendor[8..].copy_from_slice(&l0.ecx.to_le_bytes());
    let base = (l1.eax >> 8) & 0xf;
    let family = if base == 0xf {
        base + ((l1.eax >> 20) & 0xff)
    } else {
        base
    };
    pext_is_fast_on(&vendor, family)
}

#[cfg(not(target_arch = "x86_64"))]
fn pext_is_fast() -> bool {
    false
}

/// The rule of [`pext_is_fast`] on a CPUID vendor string and display family.
#[cfg(any(target_arch = "x86_64", test))]
pub(super) fn pext_is_fast_on(vendor: &[u8; 12], family: u32) -> bool {
    let amd_like = vendor == b"AuthenticAMD" || vendor == b"HygonGenuine";
    !(amd_like && family < 0x19)
}

/// PEXT by the instruction. Inline assembly rather than a `#[target_feature(enable = "bmi2")]`
/// function: such a function cannot be inlined into code built without BMI2, so every lookup
/// would pay a call; the `asm!` block inlines like the intrinsic does in a BMI2 build.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) fn pext_bmi2(x: u64, mask: u64) -> u64 {
    let out: u64;
    // SAFETY: called only when `PATH` is `PATH_PEXT`, which is stored only after
    // `cpu_has_bmi2()` returned true, so the CPU has the instruction. It reads and writes
    // registers only (no memory, no stack, flags unchanged).
    unsafe {
        std::arch::asm!(
            "pext {out}, {x}, {mask}",
            out = lateout(reg) out,
            x = in(reg) x,
            mask = in(reg) mask,
            options(pure, nomem, nostack, preserves_flags)
        );
    }
    out
}
