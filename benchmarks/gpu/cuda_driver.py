"""The CUDA driver calls that load and launch a PTX kernel, for tileopt's and Triton's PTX alike.

``cuModuleLoadData`` (the driver JIT-compiles the PTX for the GPU), ``cuModuleGetFunction``,
``cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)`` where a kernel needs more than 48 KiB,
``cuFuncGetAttribute(NUM_REGS / LOCAL_SIZE_BYTES)`` and ``cuLaunchKernel`` with a ``void**``
array of parameters. Two bindings give those calls: NVIDIA's ``cuda-bindings``
(``cuda.bindings.driver``, or the older ``cuda.cuda``) and CuPy's ``cupy.cuda.driver``;
:func:`open_driver` takes the first that works. Every call's status is checked.

The driver uses the CUDA context current on the thread (PyTorch's primary context, once
PyTorch has touched the GPU), so PyTorch allocations, streams and events work with it.
"""

from __future__ import annotations

import ctypes

CTYPES = {"u64": ctypes.c_uint64, "i32": ctypes.c_int32, "i64": ctypes.c_int64,
          "f32": ctypes.c_float, "f64": ctypes.c_double}

# CUfunction_attribute values (cuda.h).
ATTRIBUTES = {"max_threads": 0, "shared_size_bytes": 1, "const_size_bytes": 2,
              "local_size_bytes": 3, "num_regs": 4, "ptx_version": 5, "binary_version": 6,
              "max_dynamic_shared_size_bytes": 8}

STATIC_SHARED_LIMIT = 48 * 1024


class DriverError(RuntimeError):
    pass


def pack_parameters(params: list[tuple[str, object]]):
    """``void*[]`` pointing at one C value per parameter; returns (array, keep-alive)."""
    values = [CTYPES[ctype](value) for ctype, value in params]
    array = (ctypes.c_void_p * max(1, len(values)))(*[ctypes.addressof(v) for v in values])
    return array, values


class CudaBindingsDriver:
    """``cuda-bindings`` (``from cuda.bindings import driver``)."""

    def __init__(self):
        try:
            from cuda.bindings import driver as cu
        except ImportError:
            from cuda import cuda as cu  # cuda-python < 12.6
        self.cu = cu
        try:
            import cuda.bindings as bindings
            version = getattr(bindings, "__version__", "?")
        except ImportError:
            version = "?"
        self.name = f"cuda-bindings {version}"
        self._check(cu.cuInit(0), "cuInit")
        ctx = self._check(cu.cuCtxGetCurrent(), "cuCtxGetCurrent")
        if ctx is None or int(ctx) == 0:
            device = self._check(cu.cuDeviceGet(0), "cuDeviceGet")
            ctx = self._check(cu.cuDevicePrimaryCtxRetain(device), "cuDevicePrimaryCtxRetain")
            self._check(cu.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")

    def _check(self, result, what: str):
        if not isinstance(result, tuple):
            result = (result,)
        err, values = result[0], result[1:]
        if err != self.cu.CUresult.CUDA_SUCCESS:
            try:
                _, text = self.cu.cuGetErrorString(err)
                text = text.decode() if isinstance(text, bytes) else str(text)
            except Exception:  # noqa: BLE001 - the error code is reported anyway
                text = ""
            raise DriverError(f"{what} failed: {err} {text}".strip())
        if not values:
            return None
        return values[0] if len(values) == 1 else values

    def _attribute_enum(self, which: str):
        return self.cu.CUfunction_attribute(ATTRIBUTES[which])

    def load_module(self, ptx: str):
        image = ptx.encode() + b"\0"
        try:
            return self._check(self.cu.cuModuleLoadData(image), "cuModuleLoadData")
        except TypeError:
            buffer = ctypes.create_string_buffer(image)
            return self._check(self.cu.cuModuleLoadData(ctypes.addressof(buffer)), "cuModuleLoadData")

    def unload_module(self, module) -> None:
        self._check(self.cu.cuModuleUnload(module), "cuModuleUnload")

    def get_function(self, module, name: str):
        return self._check(self.cu.cuModuleGetFunction(module, name.encode()), "cuModuleGetFunction")

    def attribute(self, function, which: str) -> int:
        return int(self._check(self.cu.cuFuncGetAttribute(self._attribute_enum(which), function),
                               f"cuFuncGetAttribute({which})"))

    def set_attribute(self, function, which: str, value: int) -> None:
        self._check(self.cu.cuFuncSetAttribute(function, self._attribute_enum(which), value),
                    f"cuFuncSetAttribute({which})")

    def launch(self, function, grid, block, shared: int, stream: int, params) -> None:
        array, keep = pack_parameters(params)
        try:
            result = self.cu.cuLaunchKernel(function, *grid, *block, shared, self.cu.CUstream(stream),
                                            ctypes.addressof(array), 0)
        except TypeError:
            # Bindings that do not take a raw void** take (values, ctypes types).
            values = tuple(value for _, value in params)
            types = tuple(CTYPES[ctype] for ctype, _ in params)
            result = self.cu.cuLaunchKernel(function, *grid, *block, shared, self.cu.CUstream(stream),
                                            (values, types), None)
        self._check(result, "cuLaunchKernel")
        del keep

    def synchronize(self) -> None:
        self._check(self.cu.cuCtxSynchronize(), "cuCtxSynchronize")


class CupyDriver:
    """CuPy's thin driver module (``cupy.cuda.driver``): the same calls."""

    def __init__(self):
        import cupy
        from cupy.cuda import driver as cd
        self.cd = cd
        self.name = f"cupy {cupy.__version__} driver"
        if cd.ctxGetCurrent() == 0:
            raise DriverError("no current CUDA context (initialise PyTorch on the GPU first)")

    def _call(self, what: str, fn, *args):
        try:
            return fn(*args)
        except Exception as err:  # CUDADriverError
            raise DriverError(f"{what} failed: {err}") from err

    def load_module(self, ptx: str):
        return self._call("cuModuleLoadData", self.cd.moduleLoadData, ptx.encode() + b"\0")

    def unload_module(self, module) -> None:
        self._call("cuModuleUnload", self.cd.moduleUnload, module)

    def get_function(self, module, name: str):
        return self._call("cuModuleGetFunction", self.cd.moduleGetFunction, module, name)

    def attribute(self, function, which: str) -> int:
        return int(self._call(f"cuFuncGetAttribute({which})", self.cd.funcGetAttribute,
                              ATTRIBUTES[which], function))

    def set_attribute(self, function, which: str, value: int) -> None:
        self._call(f"cuFuncSetAttribute({which})", self.cd.funcSetAttribute, function,
                   ATTRIBUTES[which], value)

    def launch(self, function, grid, block, shared: int, stream: int, params) -> None:
        array, keep = pack_parameters(params)
        self._call("cuLaunchKernel", self.cd.launchKernel, function, *grid, *block, shared,
                   stream, ctypes.addressof(array), 0)
        del keep

    def synchronize(self) -> None:
        self._call("cuCtxSynchronize", self.cd.ctxSynchronize)


BACKENDS = {"cuda-bindings": CudaBindingsDriver, "cupy": CupyDriver}


def open_driver(prefer: str = "auto"):
    """The first driver binding that loads (``prefer``: auto, cuda-bindings or cupy)."""
    names = list(BACKENDS) if prefer == "auto" else [prefer]
    errors = []
    for name in names:
        try:
            return BACKENDS[name]()
        except Exception as err:  # noqa: BLE001 - try the next binding, report all
            errors.append(f"{name}: {type(err).__name__}: {err}")
    raise DriverError("no CUDA driver binding works: " + "; ".join(errors))


class LoadedKernel:
    """A kernel loaded from PTX, ready to launch with (ctype, value) parameters."""

    def __init__(self, driver, ptx: str, name: str, shared: int):
        self.driver = driver
        self.module = driver.load_module(ptx)
        self.function = driver.get_function(self.module, name)
        self.shared = shared
        if shared > STATIC_SHARED_LIMIT:
            driver.set_attribute(self.function, "max_dynamic_shared_size_bytes", shared)
        self.registers = driver.attribute(self.function, "num_regs")
        self.local_bytes = driver.attribute(self.function, "local_size_bytes")
        self.max_threads = driver.attribute(self.function, "max_threads")

    def launch(self, grid, block, stream: int, params) -> None:
        self.driver.launch(self.function, grid, block, self.shared, stream, params)

    def close(self) -> None:
        try:
            self.driver.unload_module(self.module)
        except DriverError:
            pass
