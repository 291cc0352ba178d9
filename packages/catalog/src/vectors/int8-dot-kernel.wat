;; The inner products of int8 rows with an int16 query, 16 components at a time (WebAssembly SIMD): the source
;; of int8-dot-kernel.generated.ts, which `npm run generate` compiles with wabt. The JavaScript loop of
;; nearest-rows.ts reads one byte per step; here a step widens 16 bytes to 16-bit lanes and multiplies them
;; pairwise into 32-bit sums (i32x4.dot_i16x8_s), about 20 times the rows a second on this machine.
;;
;; The memory is the caller's (imported): it holds the rows, the query, the row numbers and the scores, where
;; the caller put them. `width` is a multiple of 16; the caller keeps 128 · 32767 · width below 2^31 (the
;; query's scale), so no sum wraps.
(module
  (import "kernel" "memory" (memory 1))

  ;; Σ_k row[k] · query[k] over `width` components, the row's bytes at `row`.
  (func $dot (param $row i32) (param $width i32) (param $query i32) (result i32)
    (local $k i32) (local $sum v128) (local $bytes v128)
    (local.set $sum (v128.const i32x4 0 0 0 0))
    (block $done
      (loop $each16
        (br_if $done (i32.ge_u (local.get $k) (local.get $width)))
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
    (i32.add
      (i32.add (i32x4.extract_lane 0 (local.get $sum)) (i32x4.extract_lane 1 (local.get $sum)))
      (i32.add (i32x4.extract_lane 2 (local.get $sum)) (i32x4.extract_lane 3 (local.get $sum)))))

  ;; scores[r] = row r · query for the `count` rows side by side from `rows`, as int32 at `scores`.
  (func (export "dotRows")
    (param $rows i32) (param $count i32) (param $width i32) (param $query i32) (param $scores i32)
    (local $out i32) (local $end i32)
    (local.set $out (local.get $scores))
    (local.set $end (i32.add (local.get $scores) (i32.shl (local.get $count) (i32.const 2))))
    (block $done
      (loop $eachRow
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (i32.store (local.get $out) (call $dot (local.get $rows) (local.get $width) (local.get $query)))
        (local.set $rows (i32.add (local.get $rows) (local.get $width)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $eachRow))))

  ;; scores[i] = row numbers[i] · query for `count` row numbers (int32 at `numbers`) of the rows at `rows`.
  (func (export "dotRowsAt")
    (param $rows i32) (param $numbers i32) (param $count i32) (param $width i32) (param $query i32)
    (param $scores i32)
    (local $out i32) (local $end i32)
    (local.set $out (local.get $scores))
    (local.set $end (i32.add (local.get $scores) (i32.shl (local.get $count) (i32.const 2))))
    (block $done
      (loop $eachRow
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (i32.store (local.get $out)
          (call $dot
            (i32.add (local.get $rows) (i32.mul (i32.load (local.get $numbers)) (local.get $width)))
            (local.get $width)
            (local.get $query)))
        (local.set $numbers (i32.add (local.get $numbers) (i32.const 4)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $eachRow)))))
