//! DaCe's enumerations (`dace.dtypes`), stored by member name.
//!
//! DaCe writes an enumeration as the member's name. A name this model does not
//! know is kept verbatim in the `Other` variant, as DaCe itself does with its
//! `Undefined` member, so that it is written back unchanged.

use serde::de::{Deserialize, Deserializer, Error as _};
use serde::ser::{Serialize, Serializer};

macro_rules! dace_enum {
    (
        $(#[$meta:meta])*
        $name:ident default $default:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )+
            /// A member name this model does not know, kept verbatim.
            Other(String),
        }

        impl $name {
            /// The member name as DaCe writes it.
            pub fn as_str(&self) -> &str {
                match self {
                    $( Self::$variant => $text, )+
                    Self::Other(s) => s,
                }
            }

            /// Parses a member name; unknown names become [`Self::Other`].
            pub fn from_name(s: &str) -> Self {
                match s {
                    $( $text => Self::$variant, )+
                    _ => Self::Other(s.to_owned()),
                }
            }

            /// Whether this is DaCe's default member.
            pub fn is_default(&self) -> bool {
                *self == Self::$default
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                match Option::<String>::deserialize(d)? {
                    Some(s) => Ok(Self::from_name(&s)),
                    None => Err(D::Error::custom(concat!(
                        "expected a ",
                        stringify!($name),
                        " member name, found null"
                    ))),
                }
            }
        }
    };
}

dace_enum! {
    /// Where a data container lives (`dace.dtypes.StorageType`); default `Default`.
    StorageType default Default {
        #[default]
        /// Chosen by DaCe from the context.
        Default = "Default",
        /// A local variable or register.
        Register = "Register",
        /// Page-locked host memory.
        CpuPinned = "CPU_Pinned",
        /// Host heap memory.
        CpuHeap = "CPU_Heap",
        /// Thread-local host memory.
        CpuThreadLocal = "CPU_ThreadLocal",
        /// GPU global memory.
        GpuGlobal = "GPU_Global",
        /// GPU shared memory.
        GpuShared = "GPU_Shared",
        /// FPGA off-chip memory.
        FpgaGlobal = "FPGA_Global",
        /// FPGA on-chip memory.
        FpgaLocal = "FPGA_Local",
        /// FPGA registers.
        FpgaRegisters = "FPGA_Registers",
        /// FPGA shift register.
        FpgaShiftRegister = "FPGA_ShiftRegister",
        /// ARM SVE register.
        SveRegister = "SVE_Register",
        /// Snitch TCDM memory.
        SnitchTcdm = "Snitch_TCDM",
        /// Snitch L2 memory.
        SnitchL2 = "Snitch_L2",
        /// Snitch stream semantic register.
        SnitchSsr = "Snitch_SSR",
        /// DaCe's explicit `Undefined` member.
        Undefined = "Undefined",
    }
}

dace_enum! {
    /// When a data container is allocated (`dace.dtypes.AllocationLifetime`); default `Scope`.
    AllocationLifetime default Scope {
        #[default]
        /// Allocated in the innermost scope that uses it.
        Scope = "Scope",
        /// Allocated for the state.
        State = "State",
        /// Allocated for the SDFG.
        Sdfg = "SDFG",
        /// Allocated for the whole program.
        Global = "Global",
        /// Kept across calls.
        Persistent = "Persistent",
        /// Allocated by the caller.
        External = "External",
        /// DaCe's explicit `Undefined` member.
        Undefined = "Undefined",
    }
}

dace_enum! {
    /// How a scope is scheduled (`dace.dtypes.ScheduleType`); default `Default`.
    ScheduleType default Default {
        #[default]
        /// Chosen by DaCe from the context.
        Default = "Default",
        /// Sequential loop.
        Sequential = "Sequential",
        /// MPI processes.
        Mpi = "MPI",
        /// OpenMP parallel loop.
        CpuMulticore = "CPU_Multicore",
        /// Persistent OpenMP region.
        CpuPersistent = "CPU_Persistent",
        /// Fully unrolled loop.
        Unrolled = "Unrolled",
        /// ARM SVE vector loop.
        SveMap = "SVE_Map",
        /// GPU, chosen by DaCe.
        GpuDefault = "GPU_Default",
        /// GPU kernel grid.
        GpuDevice = "GPU_Device",
        /// GPU thread block.
        GpuThreadBlock = "GPU_ThreadBlock",
        /// Dynamically scheduled GPU thread block.
        GpuThreadBlockDynamic = "GPU_ThreadBlock_Dynamic",
        /// Persistent GPU kernel.
        GpuPersistent = "GPU_Persistent",
        /// FPGA kernel.
        FpgaDevice = "FPGA_Device",
        /// Snitch core.
        Snitch = "Snitch",
        /// Snitch cluster.
        SnitchMulticore = "Snitch_Multicore",
        /// Multi-pumped FPGA kernel.
        FpgaMultiPumped = "FPGA_Multi_Pumped",
        /// DaCe's explicit `Undefined` member.
        Undefined = "Undefined",
    }
}

dace_enum! {
    /// Language of a code block (`dace.dtypes.Language`); default `Python`.
    Language default Python {
        #[default]
        /// Python (DaCe's tasklet dialect).
        Python = "Python",
        /// C++.
        Cpp = "CPP",
        /// OpenCL.
        OpenCl = "OpenCL",
        /// SystemVerilog.
        SystemVerilog = "SystemVerilog",
        /// MLIR.
        Mlir = "MLIR",
        /// DaCe's explicit `Undefined` member.
        Undefined = "Undefined",
    }
}

dace_enum! {
    /// Performance instrumentation (`dace.dtypes.InstrumentationType`); default `No_Instrumentation`.
    InstrumentationType default NoInstrumentation {
        #[default]
        /// No instrumentation.
        NoInstrumentation = "No_Instrumentation",
        /// Wall-clock timer.
        Timer = "Timer",
        /// PAPI counters.
        PapiCounters = "PAPI_Counters",
        /// LIKWID CPU counters.
        LikwidCpu = "LIKWID_CPU",
        /// LIKWID GPU counters.
        LikwidGpu = "LIKWID_GPU",
        /// GPU events.
        GpuEvents = "GPU_Events",
        /// FPGA counters.
        Fpga = "FPGA",
        /// DaCe's explicit `Undefined` member.
        Undefined = "Undefined",
    }
}

dace_enum! {
    /// Data instrumentation (`dace.dtypes.DataInstrumentationType`); default `No_Instrumentation`.
    DataInstrumentationType default NoInstrumentation {
        #[default]
        /// No instrumentation.
        NoInstrumentation = "No_Instrumentation",
        /// Save data to disk.
        Save = "Save",
        /// Restore data from disk.
        Restore = "Restore",
        /// DaCe's explicit `Undefined` member.
        Undefined = "Undefined",
    }
}

dace_enum! {
    /// OpenMP loop schedule (`dace.dtypes.OMPScheduleType`); default `Default`.
    OmpScheduleType default Default {
        #[default]
        /// The OpenMP runtime's default.
        Default = "Default",
        /// `schedule(static)`.
        Static = "Static",
        /// `schedule(dynamic)`.
        Dynamic = "Dynamic",
        /// `schedule(guided)`.
        Guided = "Guided",
        /// DaCe's explicit `Undefined` member.
        Undefined = "Undefined",
    }
}
