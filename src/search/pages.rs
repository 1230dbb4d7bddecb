//! The search's big tables' memory: a block of zeroed values taken straight from the allocator (so that a table
//! costs nothing until it is used), on a 2 MB boundary when it is that big, so that the system can back all of it
//! with huge pages when asked ([`Pages::use_huge_pages`]). The tables are read at random, a few bytes at a time:
//! with 4 KB pages nearly every read also misses the processor's list of pages it knows (the TLB), and on a
//! virtual machine each such miss walks two sets of page tables.
//!
//! Owns the allocation and the hint; not what the tables keep in it.

use std::alloc::{self, Layout};
use std::ptr::NonNull;

/// A huge page: 2 MB on x86-64 and aarch64 Linux.
const HUGE: usize = 2 << 20;

/// A type whose all-zero bytes are a valid value (atomics and integers holding 0).
///
/// # Safety
/// All-zero bytes must be a valid value of the type.
pub(crate) unsafe trait Zeroed {}

// SAFETY: integers are valid for any bytes, zeros included.
unsafe impl Zeroed for (u64, i32) {}

/// `len` values of `T`, all zero at first.
pub(crate) struct Pages<T: Zeroed> {
    /// The first value: `block`, or the first 2 MB boundary inside it.
    start: NonNull<T>,
    len: usize,
    /// The allocation, with room for moving the start to a boundary.
    block: NonNull<u8>,
    layout: Layout,
}

// SAFETY: `Pages` owns its values as a `Box<[T]>` would; sending or sharing it sends or shares them.
unsafe impl<T: Zeroed + Send> Send for Pages<T> {}
// SAFETY: as above.
unsafe impl<T: Zeroed + Sync> Sync for Pages<T> {}

impl<T: Zeroed> Pages<T> {
    /// `len` zeroed values (at least one), or `None` when the memory is not available.
    pub(crate) fn new(len: usize) -> Option<Pages<T>> {
        let len = len.max(1);
        let size = len.checked_mul(std::mem::size_of::<T>()).filter(|&size| size > 0)?;
        // A big block is asked for 2 MB larger and starts at the first boundary inside it. (Asking the allocator for
        // that alignment would have it write the zeros itself, touching every page; a block of the natural
        // alignment comes zeroed from the system, untouched, and the 2 MB before the boundary are never used.)
        let room = if size >= HUGE { HUGE } else { 0 };
        let layout = Layout::from_size_align(size.checked_add(room)?, std::mem::align_of::<T>()).ok()?;
        // SAFETY: the layout's size is not zero.
        let block = NonNull::new(unsafe { alloc::alloc_zeroed(layout) })?;
        let offset = if room > 0 {
            (block.as_ptr() as usize).next_multiple_of(HUGE) - block.as_ptr() as usize
        } else {
            0
        };
        // SAFETY: `offset < room`, so `offset + size` bytes lie inside the block; a multiple of 2 MB from a start
        // aligned for T is still aligned for T (no T is aligned to more than 2 MB).
        let start = unsafe { block.add(offset) }.cast::<T>();
        Some(Pages {
            start,
            len,
            block,
            layout,
        })
    }

    /// Have a thread of its own ask the system to back all of the memory now (with huge pages where they were
    /// asked for), so that a search's touches find their pages there instead of each waiting for one. A 64 MB
    /// table is there within milliseconds of the call (the system zeroes each page; a search of a few
    /// milliseconds, touching every 2 MB of it at once, waits for most of that); a search of a fresh process
    /// touching it at random on 4 KB pages spent much of its time on misses of the processor's list of pages.
    /// Only a hint (Linux 5.14 and later): elsewhere, or where it is refused, pages still come at the first touch. Nothing is written: the kernel only maps the pages, and values written meanwhile stay.
    /// The thread, whose result says whether the system did it, need not be joined: should the memory be freed
    /// first, the kernel finds the range gone and stops.
    pub(crate) fn populate_in_background(&self) -> Option<std::thread::JoinHandle<bool>> {
        #[cfg(target_os = "linux")]
        {
            let (start, bytes) = (self.start.as_ptr() as usize, self.len * std::mem::size_of::<T>());
            std::thread::Builder::new()
                .name("waggle-pages".into())
                .spawn(move || {
                    // SAFETY: MADV_POPULATE_WRITE maps the range's pages as a write would, without writing: no
                    // byte of the memory changes, whoever else reads or writes it meanwhile.
                    unsafe { libc::madvise(start as *mut libc::c_void, bytes, libc::MADV_POPULATE_WRITE) == 0 }
                })
                .ok()
        }
        #[cfg(not(target_os = "linux"))]
        None
    }

    /// Ask the system to back the memory with huge pages where it allows (Linux with transparent huge pages on
    /// `madvise` or `always`): its first touches then cost one page fault per 2 MB, and its reads miss the TLB
    /// seldom. Only a hint: where it is refused nothing changes.
    pub(crate) fn use_huge_pages(&self) {
        #[cfg(target_os = "linux")]
        {
            let first = (self.start.as_ptr() as usize).next_multiple_of(HUGE);
            let end = (self.start.as_ptr() as usize + self.len * std::mem::size_of::<T>()) / HUGE * HUGE;
            if end > first {
                // SAFETY: madvise only changes how the kernel backs pages of this process's own allocation (the
                // range lies inside it); MADV_HUGEPAGE neither moves, changes nor frees memory, and a refusal is
                // harmless.
                unsafe {
                    libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
                }
            }
        }
    }
}

impl<T: Zeroed> std::ops::Deref for Pages<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: `start` holds `len` values of T, zeroed when allocated (a valid T, by `Zeroed`) and only ever
        // written through `&mut self` since; the allocation lives as long as `self`.
        unsafe { std::slice::from_raw_parts(self.start.as_ptr(), self.len) }
    }
}

impl<T: Zeroed> std::ops::DerefMut for Pages<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` makes this the only reference.
        unsafe { std::slice::from_raw_parts_mut(self.start.as_ptr(), self.len) }
    }
}

impl<T: Zeroed> Drop for Pages<T> {
    fn drop(&mut self) {
        // SAFETY: the block was allocated with this layout by `new` and is freed once, here. The values need no
        // drop of their own: `Zeroed` types are plain integers and atomics.
        unsafe { alloc::dealloc(self.block.as_ptr(), self.layout) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_starts_zeroed_big_ones_on_a_huge_page_boundary() {
        let mut small: Pages<(u64, i32)> = Pages::new(10).unwrap();
        assert!(small.iter().all(|&v| v == (0, 0)));
        small[9] = (3, 4);
        assert_eq!(small[9], (3, 4));
        let big: Pages<(u64, i32)> = Pages::new(1 << 18).unwrap();
        assert_eq!(big.len(), 1 << 18);
        assert_eq!(big.as_ptr() as usize % HUGE, 0);
        big.use_huge_pages();
        assert!(big.iter().all(|&v| v == (0, 0)));
    }

    /// Memory brought in ahead is all there afterwards (where the system does it: Linux 5.14 and later), and what
    /// was written before is as it was.
    #[cfg(target_os = "linux")]
    #[test]
    fn memory_brought_in_ahead_is_there_and_unchanged() {
        let mut big: Pages<(u64, i32)> = Pages::new(1 << 18).unwrap();
        let bytes = big.len() * std::mem::size_of::<(u64, i32)>();
        // The allocator may hand out memory a test before this one made resident: given back first, so that only
        // the page written below is there.
        // SAFETY: the range is the block's own, all zeros, and anonymous memory given back reads as zeros again.
        let given_back = unsafe { libc::madvise(big.as_ptr() as *mut libc::c_void, bytes, libc::MADV_DONTNEED) };
        assert_eq!(given_back, 0);
        big[5] = (7, 8);
        let pages = bytes.div_ceil(4096);
        let resident = |big: &Pages<(u64, i32)>| {
            let mut flags = vec![0u8; pages];
            // SAFETY: the range is the block's own (its start on a 2 MB boundary, so on a page boundary) and
            // `flags` has a byte for each of its pages.
            let done = unsafe { libc::mincore(big.as_ptr() as *mut libc::c_void, bytes, flags.as_mut_ptr()) };
            assert_eq!(done, 0);
            flags.iter().filter(|&&f| f & 1 != 0).count()
        };
        assert!(resident(&big) < pages, "not there before");
        let populated = big.populate_in_background().unwrap().join().unwrap();
        if populated {
            assert_eq!(resident(&big), pages);
        }
        assert_eq!(big[5], (7, 8));
        assert!(big.iter().enumerate().all(|(i, &v)| i == 5 || v == (0, 0)));
    }
}
