;; The inner products of int8 rows with an int16 query, 16 components at a time (WebAssembly SIMD): the source
;; of int8-dot-kernel.generated.ts, which `npm run generate` compiles with wabt. The JavaScript loop of
;; nearest-rows.ts reads one byte per step; here a step widens 16 bytes to 16-bit lanes and multiplies them
;; pairwise into 32-bit sums (i32x4.dot_i16x8_s), about 20 times the rows a second on this machine.
;;
;; The memory is the caller's (imported): it holds the rows, the query and the scores, where the caller put them.
(module
  (import "kernel" "memory" (memory 1))
  ;; scores[r] = Σ_k rows[r·width + k] · query[k] for r in [0, count), as int32 at `scores`. `width` is a
  ;; multiple of 16; the caller keeps 128 · 32767 · width below 2^31 (the query's scale), so no sum wraps.
  (func (export "dotRows")
    (param $rows i32) (param $count i32) (param $width i32) (param $query i32) (param $scores i32)
    (local $row i32) (local $end i32) (local $k i32) (local $sum v128) (local $bytes v128) (local $out i32)
    (local.set $row (local.get $rows))
    (local.set $out (local.get $scores))
    (local.set $end (i32.add (local.get $scores) (i32.shl (local.get $count) (i32.const 2))))
    (block $done
      (loop $eachRow
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $sum (v128.const i32x4 0 0 0 0))
        (local.set $k (i32.const 0))
        (block $rowDone
          (loop $each16
            (br_if $rowDone (i32.ge_u (local.get $k) (local.get $width)))
            (local.set $bytes (v128.load (i32.add (local.get $row) (local.get $k))))
            (local.set $sum
              (i32x4.add (local.get $sum)
                (i32x4.dot_i16x8_s
                  (i16x8.extend_low_i8x16_s (local.get $bytes))
                  (v128.load (i32.add (local.get $query) (i32.shl (local.get $k) (i32.const 1)))))))
            (local.set $sum
              (i32x4.add (local.get $sum)
                (i32x4.dot_i16x8_s
                  (i16x8.extend_high_i8x16_s (local.get $bytes))
                  (v128.load offset=16 (i32.add (local.get $query) (i32.shl (local.get $k) (i32.const 1)))))))
            (local.set $k (i32.add (local.get $k) (i32.const 16)))
            (br $each16)))
        (i32.store (local.get $out)
          (i32.add
            (i32.add (i32x4.extract_lane 0 (local.get $sum)) (i32x4.extract_lane 1 (local.get $sum)))
            (i32.add (i32x4.extract_lane 2 (local.get $sum)) (i32x4.extract_lane 3 (local.get $sum)))))
        (local.set $row (i32.add (local.get $row) (local.get $width)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $eachRow)))))
