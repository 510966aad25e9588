// The C API (include/tcu_golden.h) over the golden model (model/). Every
// entry point catches every exception: failures become a tcu_status and the
// calling thread's last error.
#include "tcu_golden.h"

#include <algorithm>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "tcu/golden.h"
#include "tcu/instr.h"
#include "tcu/layout.h"

struct tcu_instr {
  tcu::Instr instr;
  std::string ptx;
};

struct tcu_warp {
  tcu::Instr instr;
  tcu::WarpOperands operands;
  tcu::Fragment d;
  bool executed = false;
};

namespace {

thread_local std::string last_error;

tcu_status fail(tcu_status status, std::string message) {
  last_error = std::move(message);
  return status;
}

// Runs `body` (returning tcu_status), mapping exceptions to statuses.
template <class Body>
tcu_status guarded(const char* function, Body body) {
  try {
    last_error.clear();
    return body();
  } catch (const tcu::InstrError& e) {
    return fail(TCU_ERROR_INSTR, std::string(function) + ": " + e.what());
  } catch (const tcu::OperandError& e) {
    return fail(TCU_ERROR_OPERAND, std::string(function) + ": " + e.what());
  } catch (const tcu::FpEnvironmentError& e) {
    return fail(TCU_ERROR_FP_ENV, std::string(function) + ": " + e.what());
  } catch (const std::bad_alloc&) {
    return fail(TCU_ERROR_INTERNAL, std::string(function) + ": out of memory");
  } catch (const std::exception& e) {
    return fail(TCU_ERROR_INTERNAL, std::string(function) + ": " + e.what());
  } catch (...) {
    return fail(TCU_ERROR_INTERNAL, std::string(function) + ": unknown error");
  }
}

tcu_status null_argument(const char* function, const char* name) {
  return fail(TCU_ERROR_ARGUMENT, std::string(function) + ": " + name + " is NULL");
}

bool has_operand(const tcu::Instr& instr, int operand) {
  switch (operand) {
    case TCU_OPERAND_A:
    case TCU_OPERAND_B:
    case TCU_OPERAND_C:
    case TCU_OPERAND_D:
      return true;
    case TCU_OPERAND_META:
      return instr.sparse();
    case TCU_OPERAND_SCALE_A:
    case TCU_OPERAND_SCALE_B:
      return instr.block_scaled();
    default:
      return false;
  }
}

const char* operand_name(int operand) {
  static const char* const kNames[] = {"A", "B", "C", "D", "metadata", "scale_a", "scale_b"};
  return operand >= 0 && operand <= 6 ? kNames[operand] : "?";
}

tcu::Selectors to_selectors(const tcu_selectors* s) {
  tcu::Selectors sel;
  if (s) {
    sel.sparsity = s->sparsity;
    sel.byte_id_a = s->byte_id_a;
    sel.thread_id_a = s->thread_id_a;
    sel.byte_id_b = s->byte_id_b;
    sel.thread_id_b = s->thread_id_b;
  }
  return sel;
}

// The layout of an operand, or a status naming why there is none.
tcu_status layout_of(const char* function, const tcu_instr* instr, int operand,
                     const tcu_selectors* selectors, const tcu::FragmentLayout** out) {
  if (!instr) return null_argument(function, "instr");
  if (operand < TCU_OPERAND_A || operand > TCU_OPERAND_SCALE_B)
    return fail(TCU_ERROR_ARGUMENT, std::string(function) + ": operand " + std::to_string(operand) +
                                        " is not a tcu_operand (0..6)");
  if (!has_operand(instr->instr, operand))
    return fail(TCU_ERROR_ARGUMENT, std::string(function) + ": " + instr->ptx + " has no " +
                                        operand_name(operand) + " operand");
  const tcu::Selectors sel = to_selectors(selectors);
  tcu::validate_selectors(instr->instr, sel);
  *out = &tcu::fragment_layout(instr->instr, tcu::Operand(operand), sel);
  return TCU_OK;
}

tcu_status too_small(const char* function, const char* name, size_t have, size_t need) {
  return fail(TCU_ERROR_ARGUMENT, std::string(function) + ": " + name + " holds " +
                                      std::to_string(have) + " entries, " + std::to_string(need) +
                                      " needed");
}

// Copies 32 * regs_per_lane registers of `op` from `regs` into a Fragment.
tcu_status load_fragment(const char* function, const tcu::Instr& instr, tcu::Operand op,
                         const tcu::Selectors& sel, const uint64_t* regs, const char* name,
                         tcu::Fragment* out) {
  const tcu::FragmentLayout& layout = tcu::fragment_layout(instr, op, sel);
  if (!regs) return null_argument(function, name);
  out->regs_per_lane = layout.regs_per_lane();
  out->regs.assign(regs, regs + tcu::kLanes * layout.regs_per_lane());
  return TCU_OK;
}

tcu_status load_warp(const char* function, const tcu::Instr& instr, const tcu_warp_regs* regs,
                     tcu::WarpOperands* warp) {
  if (!regs) return null_argument(function, "regs");
  warp->selectors = to_selectors(&regs->selectors);
  tcu::validate_selectors(instr, warp->selectors);
  const tcu::Selectors& sel = warp->selectors;
  tcu_status s =
      load_fragment(function, instr, tcu::Operand::kA, sel, regs->a, "regs->a", &warp->a);
  if (s == TCU_OK)
    s = load_fragment(function, instr, tcu::Operand::kB, sel, regs->b, "regs->b", &warp->b);
  if (s == TCU_OK)
    s = load_fragment(function, instr, tcu::Operand::kC, sel, regs->c, "regs->c", &warp->c);
  if (s == TCU_OK && instr.sparse())
    s = load_fragment(function, instr, tcu::Operand::kMeta, sel, regs->e, "regs->e", &warp->e);
  if (s == TCU_OK && instr.block_scaled())
    s = load_fragment(function, instr, tcu::Operand::kScaleA, sel, regs->scale_a, "regs->scale_a",
                      &warp->scale_a);
  if (s == TCU_OK && instr.block_scaled())
    s = load_fragment(function, instr, tcu::Operand::kScaleB, sel, regs->scale_b, "regs->scale_b",
                      &warp->scale_b);
  return s;
}

tcu_status load_matrix(const char* function, const tcu::FragmentLayout& layout,
                       const uint64_t* elems, const char* name, tcu::Matrix* out) {
  if (!elems) return null_argument(function, name);
  *out = tcu::Matrix(layout.batches(), layout.rows(), layout.cols());
  out->elems.assign(elems, elems + layout.elem_count());
  return TCU_OK;
}

}  // namespace

extern "C" {

const char* tcu_golden_version(void) { return TCU_GOLDEN_VERSION_STRING; }

int tcu_golden_version_number(void) {
  return TCU_GOLDEN_VERSION_MAJOR * 10000 + TCU_GOLDEN_VERSION_MINOR * 100 +
         TCU_GOLDEN_VERSION_PATCH;
}

const char* tcu_last_error(void) { return last_error.c_str(); }

const char* tcu_status_name(int status) {
  switch (status) {
    case TCU_OK:
      return "TCU_OK";
    case TCU_ERROR_ARGUMENT:
      return "TCU_ERROR_ARGUMENT";
    case TCU_ERROR_INSTR:
      return "TCU_ERROR_INSTR";
    case TCU_ERROR_OPERAND:
      return "TCU_ERROR_OPERAND";
    case TCU_ERROR_FP_ENV:
      return "TCU_ERROR_FP_ENV";
    case TCU_ERROR_INTERNAL:
      return "TCU_ERROR_INTERNAL";
    default:
      return "TCU_STATUS_UNKNOWN";
  }
}

tcu_status tcu_instr_parse(const char* ptx, tcu_instr** out) {
  return guarded("tcu_instr_parse", [&] {
    if (!out) return null_argument("tcu_instr_parse", "out");
    *out = nullptr;
    if (!ptx) return null_argument("tcu_instr_parse", "ptx");
    tcu::Instr instr = tcu::parse_ptx(ptx);
    *out = new tcu_instr{instr, instr.ptx()};
    return TCU_OK;
  });
}

void tcu_instr_free(tcu_instr* instr) { delete instr; }

const char* tcu_instr_ptx(const tcu_instr* instr) { return instr ? instr->ptx.c_str() : ""; }

int tcu_variant_count(void) {
  try {
    return int(tcu::all_variants().size());
  } catch (...) {
    return 0;
  }
}

const char* tcu_variant_ptx(int index) {
  try {
    static const std::vector<std::string> spellings = [] {
      std::vector<std::string> s;
      for (const tcu::Instr& instr : tcu::all_variants()) s.push_back(instr.ptx());
      return s;
    }();
    if (index < 0 || size_t(index) >= spellings.size()) return nullptr;
    return spellings[size_t(index)].c_str();
  } catch (...) {
    return nullptr;
  }
}

tcu_status tcu_instr_get_info(const tcu_instr* handle, tcu_instr_info* out) {
  if (!handle) return null_argument("tcu_instr_get_info", "instr");
  if (!out) return null_argument("tcu_instr_get_info", "out");
  last_error.clear();
  const tcu::Instr& in = handle->instr;
  out->family = int(in.family);
  out->m = in.shape.m;
  out->n = in.shape.n;
  out->k = in.shape.k;
  out->batches = in.batches();
  out->a_type = int(in.a_type);
  out->b_type = int(in.b_type);
  out->c_type = int(in.c_type);
  out->d_type = int(in.d_type);
  out->a_row = in.a_layout == tcu::MatrixLayout::kRow;
  out->b_row = in.b_layout == tcu::MatrixLayout::kRow;
  out->satfinite = in.satfinite;
  out->rounding = int(in.rounding);
  out->ordered_metadata = in.ordered_metadata;
  out->scale_vec = in.scale_vec == tcu::ScaleVec::k2X   ? 2
                   : in.scale_vec == tcu::ScaleVec::k4X ? 4
                                                        : 0;
  out->scale_type = int(in.scale_type);
  out->mxf4nvf4 = in.mxf4nvf4;
  return TCU_OK;
}

int tcu_instr_field(const tcu_instr* instr, int field) {
  tcu_instr_info info;
  if (tcu_instr_get_info(instr, &info) != TCU_OK) return -1;
  const int fields[] = {info.family,    info.m,
                        info.n,         info.k,
                        info.batches,   info.a_type,
                        info.b_type,    info.c_type,
                        info.d_type,    info.a_row,
                        info.b_row,     info.satfinite,
                        info.rounding,  info.ordered_metadata,
                        info.scale_vec, info.scale_type,
                        info.mxf4nvf4};
  if (field < 0 || field >= int(sizeof fields / sizeof fields[0])) return -1;
  return fields[field];
}

tcu_status tcu_operand_get_info(const tcu_instr* instr, int operand, tcu_operand_info* out) {
  return guarded("tcu_operand_get_info", [&] {
    if (!out) return null_argument("tcu_operand_get_info", "out");
    *out = tcu_operand_info{};
    if (!instr) return null_argument("tcu_operand_get_info", "instr");
    if (operand < TCU_OPERAND_A || operand > TCU_OPERAND_SCALE_B)
      return fail(TCU_ERROR_ARGUMENT, "tcu_operand_get_info: operand " + std::to_string(operand) +
                                          " is not a tcu_operand (0..6)");
    if (!has_operand(instr->instr, operand)) return TCU_OK;
    const tcu::FragmentLayout& l = tcu::fragment_layout(instr->instr, tcu::Operand(operand));
    *out = {1,           l.regs_per_lane(), l.reg_bits(), l.elems_per_reg(), l.elem_bits(),
            l.batches(), l.rows(),          l.cols()};
    return TCU_OK;
  });
}

int tcu_operand_regs(const tcu_instr* instr, int operand) {
  tcu_operand_info info;
  return tcu_operand_get_info(instr, operand, &info) == TCU_OK ? info.regs_per_lane : 0;
}

int tcu_operand_reg_bits(const tcu_instr* instr, int operand) {
  tcu_operand_info info;
  return tcu_operand_get_info(instr, operand, &info) == TCU_OK ? info.reg_bits : 0;
}

tcu_status tcu_execute(const tcu_instr* instr, const tcu_warp_regs* regs, uint64_t* d,
                       size_t d_count) {
  const char* fn = "tcu_execute";
  return guarded(fn, [&] {
    if (!instr) return null_argument(fn, "instr");
    if (!d) return null_argument(fn, "d");
    const size_t need =
        size_t(tcu::kLanes) *
        size_t(tcu::fragment_layout(instr->instr, tcu::Operand::kD).regs_per_lane());
    if (d_count < need) return too_small(fn, "d", d_count, need);
    tcu::WarpOperands warp;
    if (tcu_status s = load_warp(fn, instr->instr, regs, &warp); s != TCU_OK) return s;
    const tcu::Fragment result = tcu::golden_execute(instr->instr, warp);
    std::copy(result.regs.begin(), result.regs.end(), d);
    return TCU_OK;
  });
}

tcu_status tcu_validate(const tcu_instr* instr, const tcu_warp_regs* regs) {
  const char* fn = "tcu_validate";
  return guarded(fn, [&] {
    if (!instr) return null_argument(fn, "instr");
    tcu::WarpOperands warp;
    if (tcu_status s = load_warp(fn, instr->instr, regs, &warp); s != TCU_OK) return s;
    tcu::validate_operands(instr->instr, warp);
    return TCU_OK;
  });
}

tcu_status tcu_mma(const tcu_instr* instr, const tcu_matrices* m, uint64_t* d, size_t d_count) {
  const char* fn = "tcu_mma";
  return guarded(fn, [&] {
    if (!instr) return null_argument(fn, "instr");
    if (!m) return null_argument(fn, "matrices");
    if (!d) return null_argument(fn, "d");
    const tcu::Instr& in = instr->instr;
    const size_t need = size_t(tcu::fragment_layout(in, tcu::Operand::kD).elem_count());
    if (d_count < need) return too_small(fn, "d", d_count, need);
    tcu::Operands ops;
    auto load = [&](tcu::Operand op, const uint64_t* elems, const char* name, tcu::Matrix* out) {
      return load_matrix(fn, tcu::fragment_layout(in, op), elems, name, out);
    };
    tcu_status s = load(tcu::Operand::kA, m->a, "matrices->a", &ops.a);
    if (s == TCU_OK) s = load(tcu::Operand::kB, m->b, "matrices->b", &ops.b);
    if (s == TCU_OK) s = load(tcu::Operand::kC, m->c, "matrices->c", &ops.c);
    if (s == TCU_OK && in.sparse())
      s = load(tcu::Operand::kMeta, m->meta, "matrices->meta", &ops.meta);
    if (s == TCU_OK && in.block_scaled())
      s = load(tcu::Operand::kScaleA, m->scale_a, "matrices->scale_a", &ops.scale_a);
    if (s == TCU_OK && in.block_scaled())
      s = load(tcu::Operand::kScaleB, m->scale_b, "matrices->scale_b", &ops.scale_b);
    if (s != TCU_OK) return s;
    const tcu::Matrix result = tcu::golden_mma(in, ops);
    std::copy(result.elems.begin(), result.elems.end(), d);
    return TCU_OK;
  });
}

tcu_status tcu_regs_to_matrix(const tcu_instr* instr, int operand, const tcu_selectors* selectors,
                              const uint64_t* regs, size_t reg_count, uint64_t* elems,
                              size_t elem_count) {
  const char* fn = "tcu_regs_to_matrix";
  return guarded(fn, [&] {
    const tcu::FragmentLayout* layout = nullptr;
    if (tcu_status s = layout_of(fn, instr, operand, selectors, &layout); s != TCU_OK) return s;
    if (!regs) return null_argument(fn, "regs");
    if (!elems) return null_argument(fn, "elems");
    const size_t need_regs = size_t(tcu::kLanes * layout->regs_per_lane());
    if (reg_count < need_regs) return too_small(fn, "regs", reg_count, need_regs);
    if (elem_count < size_t(layout->elem_count()))
      return too_small(fn, "elems", elem_count, size_t(layout->elem_count()));
    tcu::Fragment fragment;
    fragment.regs_per_lane = layout->regs_per_lane();
    fragment.regs.assign(regs, regs + need_regs);
    layout->gather_into(fragment, elems);
    return TCU_OK;
  });
}

tcu_status tcu_matrix_to_regs(const tcu_instr* instr, int operand, const tcu_selectors* selectors,
                              const uint64_t* elems, size_t elem_count, uint64_t* regs,
                              size_t reg_count) {
  const char* fn = "tcu_matrix_to_regs";
  return guarded(fn, [&] {
    const tcu::FragmentLayout* layout = nullptr;
    if (tcu_status s = layout_of(fn, instr, operand, selectors, &layout); s != TCU_OK) return s;
    if (!elems) return null_argument(fn, "elems");
    if (!regs) return null_argument(fn, "regs");
    const size_t need_regs = size_t(tcu::kLanes * layout->regs_per_lane());
    if (reg_count < need_regs) return too_small(fn, "regs", reg_count, need_regs);
    if (elem_count < size_t(layout->elem_count()))
      return too_small(fn, "elems", elem_count, size_t(layout->elem_count()));
    tcu::Fragment fragment;
    layout->scatter_into(elems, &fragment);
    std::copy(fragment.regs.begin(), fragment.regs.end(), regs);
    return TCU_OK;
  });
}

tcu_status tcu_layout_slot(const tcu_instr* instr, int operand, const tcu_selectors* selectors,
                           int batch, int row, int col, int* lane, int* reg, int* elem) {
  const char* fn = "tcu_layout_slot";
  return guarded(fn, [&] {
    const tcu::FragmentLayout* layout = nullptr;
    if (tcu_status s = layout_of(fn, instr, operand, selectors, &layout); s != TCU_OK) return s;
    if (!lane || !reg || !elem) return null_argument(fn, "lane, reg or elem");
    if (batch < 0 || batch >= layout->batches() || row < 0 || row >= layout->rows() || col < 0 ||
        col >= layout->cols())
      return fail(TCU_ERROR_ARGUMENT,
                  std::string(fn) + ": element (batch " + std::to_string(batch) + ", row " +
                      std::to_string(row) + ", col " + std::to_string(col) + ") is outside the " +
                      operand_name(operand) + " matrix (" + std::to_string(layout->batches()) +
                      " x " + std::to_string(layout->rows()) + " x " +
                      std::to_string(layout->cols()) + ")");
    const tcu::Slot slot = layout->slot_of({batch, row, col});
    *lane = slot.lane;
    *reg = slot.reg;
    *elem = slot.elem;
    return TCU_OK;
  });
}

tcu_status tcu_layout_coord(const tcu_instr* instr, int operand, const tcu_selectors* selectors,
                            int lane, int reg, int elem, int* holds, int* batch, int* row,
                            int* col) {
  const char* fn = "tcu_layout_coord";
  return guarded(fn, [&] {
    const tcu::FragmentLayout* layout = nullptr;
    if (tcu_status s = layout_of(fn, instr, operand, selectors, &layout); s != TCU_OK) return s;
    if (!holds || !batch || !row || !col) return null_argument(fn, "holds, batch, row or col");
    if (lane < 0 || lane >= tcu::kLanes || reg < 0 || reg >= layout->regs_per_lane() || elem < 0 ||
        elem >= layout->elems_per_reg())
      return fail(TCU_ERROR_ARGUMENT,
                  std::string(fn) + ": slot (lane " + std::to_string(lane) + ", reg " +
                      std::to_string(reg) + ", elem " + std::to_string(elem) +
                      ") is outside the fragment (32 lanes x " +
                      std::to_string(layout->regs_per_lane()) + " registers x " +
                      std::to_string(layout->elems_per_reg()) + " elements)");
    tcu::Coord coord;
    *holds = layout->coord_of({lane, reg, elem}, &coord) ? 1 : 0;
    *batch = *holds ? coord.batch : -1;
    *row = *holds ? coord.row : -1;
    *col = *holds ? coord.col : -1;
    return TCU_OK;
  });
}

tcu_status tcu_warp_create(const tcu_instr* instr, tcu_warp** out) {
  const char* fn = "tcu_warp_create";
  return guarded(fn, [&] {
    if (!out) return null_argument(fn, "out");
    *out = nullptr;
    if (!instr) return null_argument(fn, "instr");
    auto* warp = new tcu_warp;
    warp->instr = instr->instr;
    *out = warp;
    return tcu_warp_clear(warp);
  });
}

void tcu_warp_free(tcu_warp* warp) { delete warp; }

tcu_status tcu_warp_clear(tcu_warp* warp) {
  const char* fn = "tcu_warp_clear";
  return guarded(fn, [&] {
    if (!warp) return null_argument(fn, "warp");
    const tcu::Instr& in = warp->instr;
    auto empty = [&](tcu::Operand op) {
      return has_operand(in, int(op)) ? tcu::fragment_layout(in, op).empty_fragment()
                                      : tcu::Fragment{};
    };
    warp->operands = tcu::WarpOperands{};
    warp->operands.a = empty(tcu::Operand::kA);
    warp->operands.b = empty(tcu::Operand::kB);
    warp->operands.c = empty(tcu::Operand::kC);
    warp->operands.e = empty(tcu::Operand::kMeta);
    warp->operands.scale_a = empty(tcu::Operand::kScaleA);
    warp->operands.scale_b = empty(tcu::Operand::kScaleB);
    warp->d = empty(tcu::Operand::kD);
    warp->executed = false;
    return TCU_OK;
  });
}

tcu_status tcu_warp_set_reg(tcu_warp* warp, int operand, int lane, int reg, uint64_t value) {
  const char* fn = "tcu_warp_set_reg";
  if (!warp) return null_argument(fn, "warp");
  last_error.clear();
  tcu::Fragment* fragments[] = {
      &warp->operands.a, &warp->operands.b,       &warp->operands.c,      nullptr,
      &warp->operands.e, &warp->operands.scale_a, &warp->operands.scale_b};
  if (operand < 0 || operand > TCU_OPERAND_SCALE_B || !fragments[operand])
    return fail(TCU_ERROR_ARGUMENT, std::string(fn) + ": operand " + std::to_string(operand) +
                                        " is not a source operand (0..2, 4..6)");
  tcu::Fragment& f = *fragments[operand];
  if (f.regs_per_lane == 0)
    return fail(TCU_ERROR_ARGUMENT, std::string(fn) + ": " + warp->instr.ptx() + " has no " +
                                        operand_name(operand) + " operand");
  if (lane < 0 || lane >= tcu::kLanes || reg < 0 || reg >= f.regs_per_lane)
    return fail(TCU_ERROR_ARGUMENT, std::string(fn) + ": " + operand_name(operand) + " lane " +
                                        std::to_string(lane) + " register " + std::to_string(reg) +
                                        " is outside 32 lanes x " +
                                        std::to_string(f.regs_per_lane) + " registers");
  f.at(lane, reg) = value;
  warp->executed = false;
  return TCU_OK;
}

tcu_status tcu_warp_set_selectors(tcu_warp* warp, int sparsity, int byte_id_a, int thread_id_a,
                                  int byte_id_b, int thread_id_b) {
  const char* fn = "tcu_warp_set_selectors";
  return guarded(fn, [&] {
    if (!warp) return null_argument(fn, "warp");
    tcu::Selectors sel;
    sel.sparsity = sparsity;
    sel.byte_id_a = byte_id_a;
    sel.thread_id_a = thread_id_a;
    sel.byte_id_b = byte_id_b;
    sel.thread_id_b = thread_id_b;
    tcu::validate_selectors(warp->instr, sel);
    warp->operands.selectors = sel;
    warp->executed = false;
    return TCU_OK;
  });
}

tcu_status tcu_warp_execute(tcu_warp* warp) {
  const char* fn = "tcu_warp_execute";
  return guarded(fn, [&] {
    if (!warp) return null_argument(fn, "warp");
    warp->executed = false;
    tcu::golden_execute(warp->instr, warp->operands, &warp->d);
    warp->executed = true;
    return TCU_OK;
  });
}

tcu_status tcu_warp_get_d(const tcu_warp* warp, int lane, int reg, uint64_t* value) {
  const char* fn = "tcu_warp_get_d";
  if (!warp) return null_argument(fn, "warp");
  if (!value) return null_argument(fn, "value");
  last_error.clear();
  if (!warp->executed)
    return fail(TCU_ERROR_ARGUMENT, std::string(fn) +
                                        ": no D: tcu_warp_execute has not "
                                        "succeeded since the registers were set");
  if (lane < 0 || lane >= tcu::kLanes || reg < 0 || reg >= warp->d.regs_per_lane)
    return fail(TCU_ERROR_ARGUMENT, std::string(fn) + ": D lane " + std::to_string(lane) +
                                        " register " + std::to_string(reg) +
                                        " is outside 32 lanes x " +
                                        std::to_string(warp->d.regs_per_lane) + " registers");
  *value = warp->d.at(lane, reg);
  return TCU_OK;
}

int tcu_sparse_nibble_legal(unsigned nibble, int ordered) {
  return nibble < 16 && tcu::sparse_meta_error(nibble, ordered != 0) == nullptr;
}

}  // extern "C"
