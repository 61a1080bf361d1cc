/// @file cpu_requests.hpp
/// @brief The warp requests of the CPU run (kit/cpu_runtime.hpp): every shared access the
/// threads of a block made, grouped at the block's end by (warp, source line, load or store,
/// width, n-th execution of that line by each lane, tile). That is what the hardware issues when
/// the lanes of a warp run the same instruction, so ragged tiles whose lanes sit out group
/// right; the bank model costs the requests (kit::cpu::KernelRun::trace(), kit/cpu_run.hpp).
///
///     WarpRequests requests;
///     requests.start_block();
///     Access a;                          // thread 33 stores 4 bytes at byte 132 of tile 0
///     a.thread = 33; a.tile = 0; a.byte = 132; a.width = 4; a.op = SharedOp::store;
///     a.site = site; a.row = 1; a.col = 0;
///     requests.record(a);                // its nth: how often thread 33 ran that line before
///     requests.end_block(dim3(0, 0), 32, sites, [&](int t) -> const std::string& { ... });
///     requests.requests();               // warp 1's request: lane 1 at byte 132, ...
///
/// You do not include this file: kit/cpu_runtime.hpp does.
#pragma once

#if defined(__CUDACC__)
#error "kit/cpu_requests.hpp is the CPU path of the kernels: nvcc builds them for the GPU"
#endif

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "kit/bank_model.hpp"
#include "kit/config.hpp"
#include "kit/cpu_findings.hpp"

namespace kit::cpu_runtime {

/// Bytes of a lane's value a request keeps (the widest shared access: 16).
inline constexpr int kValueBytes = 16;

/// One warp request as the CPU run recorded it.
struct Request {
  SharedOp op = SharedOp::load; ///< Load or store.
  WarpAccess access;            ///< Lane byte offsets in the tile, active lanes, width.
  dim3 block;                   ///< The block.
  int warp = 0;                 ///< The warp.
  Site site;                    ///< The source line.
  int nth = 0;                  ///< The n-th execution of that line by the warp's lanes.
  unsigned block_x = 0;    ///< blockDim.x: lane l of warp w is thread (w * 32 + l) % block_x, ...
  std::string tile;        ///< Which tile (its declaration's line).
  int row[kWarpSize] = {}; ///< Per active lane: the tile element's row...
  int col[kWarpSize] = {}; ///< ... and column.
  /// Per active lane: the bytes it loaded or stored (the first `access.width` of them), so that
  /// a wrong output value can be traced back to the accesses that moved it.
  std::uint8_t value[kWarpSize][kValueBytes] = {};
};

/// One shared access of one thread, as the checks let it happen.
struct Access {
  int thread = 0;                       ///< The block's linear thread index.
  int tile = 0;                         ///< The tile (its index, in the order tiles were declared).
  int width = 0;                        ///< Bytes.
  int site = 0;                         ///< The source line's id (kit::cpu_runtime::Sites).
  int row = 0;                          ///< The tile element's row...
  int col = 0;                          ///< ... and column.
  int nth = 0;                          ///< Executions of this line (and op) by this thread before.
  std::uint32_t byte = 0;               ///< The byte offset in the tile.
  SharedOp op = SharedOp::load;         ///< Load or store.
  std::uint8_t value[kValueBytes] = {}; ///< The bytes loaded or stored (`width` of them).
};

/// The accesses of the running block and the requests of the run, block by block.
class WarpRequests {
public:
  /// A new recording: no requests.
  void clear() { requests_.clear(); }

  /// A new block: no accesses, every line run no times yet.
  void start_block() {
    accesses_.clear();
    nth_.clear();
  }

  /// Records access `a` of the running block; its `nth` is counted here (how many times
  /// a.thread ran a.site's load or store before).
  void record(Access a) {
    a.nth = nth_[{a.thread, a.site, static_cast<int>(a.op)}]++;
    accesses_.push_back(a);
  }

  /// Groups the block's accesses into warp requests (in the order of each request's first
  /// access) and appends them to requests(). `block_x` is blockDim.x; `tile_name(i)` names
  /// tile i.
  template <class TileName>
  void end_block(dim3 block, unsigned block_x, const Sites& sites, const TileName& tile_name) {
    std::map<std::tuple<int, int, int, int, int, int>, std::size_t>
        index; // warp, site, op, width, nth, tile
    for (const Access& a : accesses_) {
      const int warp = a.thread / kWarpSize, lane = a.thread % kWarpSize;
      const auto key =
          std::make_tuple(warp, a.site, static_cast<int>(a.op), a.width, a.nth, a.tile);
      auto it = index.find(key);
      if (it == index.end()) {
        Request r;
        r.op = a.op;
        r.access.width = a.width;
        r.access.mask = 0;
        r.block = block;
        r.warp = warp;
        r.site = sites[a.site];
        r.nth = a.nth;
        r.block_x = block_x;
        r.tile = tile_name(a.tile);
        requests_.push_back(r);
        it = index.emplace(key, requests_.size() - 1).first;
      }
      Request& r = requests_[it->second];
      r.access.mask |= 1u << lane;
      r.access.address[lane] = a.byte;
      r.row[lane] = a.row;
      r.col[lane] = a.col;
      std::memcpy(r.value[lane], a.value, sizeof a.value);
    }
  }

  /// The requests recorded since clear(), block by block, in program order.
  const std::vector<Request>& requests() const { return requests_; }

private:
  std::vector<Access> accesses_;
  std::map<std::tuple<int, int, int>, int> nth_; // (thread, site, op) -> executions so far
  std::vector<Request> requests_;
};

} // namespace kit::cpu_runtime
